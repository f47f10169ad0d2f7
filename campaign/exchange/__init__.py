"""The whole campaign out and back in: one JSON document with a schema version.

``tables`` lists every exported model once (its natural key, its parent for scoping to the
campaign, the JSON fields holding row ids); ``document`` builds the pydantic schema from
it (errors name their JSON path); ``export`` writes a campaign out, ``load`` reads a
document into a new campaign in one transaction; ``ids`` moves the row ids inside stored
JSON (the engine's ``ship-<pk>``, a turn's undo record) to and from document keys.

Imports: the models of every app below the pages (league, factions, turns, battles) and
``campaign.core``; never a page, the API, reports or play (import-linter, pyproject.toml).
"""
