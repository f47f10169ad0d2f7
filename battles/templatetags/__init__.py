"""Template helpers: game systems' names and odds, the printed report's drawings; pages layer."""
