"""Template tags of the fleet and ship pages (the boxes-left gauge); import no battles."""
