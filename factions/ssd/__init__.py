"""Ship system diagrams (SSD) drawn as SVG, with or without a ship's damage, for the ship pages,
the reports' PDF and the site.

- ``draw``: the diagram; ``canvas``: the SVG canvas it grows on;
- ``text``: the stats line and each system's icon text and label, in the current language.

Imports: factions' designs and type words and the rules engine; never battles beyond the
rules engine, campaign turns, pages or the API (import-linter, pyproject.toml).
"""
