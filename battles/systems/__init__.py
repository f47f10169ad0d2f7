"""The other game systems beside Full Thrust (seeds 001–004): pure Python rules with exact odds,
one package per system, and the registry of the systems a battle may be played in.

- ``sf_tokens``: Starfinder GM action tokens; ``sf_boarding``: Starfinder boarding;
- ``swsb``: Star Wars Starship Battles house rules; ``epic``: Epic-scale special abilities;
- ``games``: each system's name and rule helpers.

Imports: only the rules engine's dice and errors (``battles.rules``); no Django, nothing else
of the project, and no system imports another (import-linter, pyproject.toml).
"""
