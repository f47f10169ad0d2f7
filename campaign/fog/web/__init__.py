"""The organisers' reveal page of the fog of war (pages layer)."""
