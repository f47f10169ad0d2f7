"""The battle log as people read it: each engine event and die as a line in the reader's
language, under the names that viewer may see, and the battle's map drawn as SVG.

- ``lines``: a log line from an event's data (``damage``, ``light``, ``veiled`` by kind);
- ``names``: the names a viewer sees, the hidden ones, unknown data shapes;
- ``rolls``: a die's purpose; ``refusals``: the engine's refusals (``RulesError``) in words;
- ``battle_map``: the map as one SVG for the PDF, the report page and the site, and the
  replay board's layout (positions, grid, shapes; ``map_labels``: where names go).

Imports: Django's translation and campaign.core (stored text); anything below the battle
reads is allowed (campaign turns, factions, the league, the engines); never services, play,
reports, pages or the API (import-linter, pyproject.toml).
"""
