"""A battle fought turn by turn: each side's orders per game turn, the turn played by the engine
once both sides' orders are in (or the deadline passes), and the board and log as each viewer
may see them.

- ``orders``: one side's orders as stored (JSON) and as the engine takes them;
- ``game_turns``: the services that store orders and play turns; ``tasks``: their Celery tasks;
- ``engine_io``: the one place play reaches into ``battles.services``;
- ``board``, ``context``, ``contacts``: the board, the panels' context, opaque contact keys;
- ``forms``: the orders form and the movement preview.

Imports: battles.services, battles' models, scoping and log, factions (scoping, SSDs), the
league's roles and the rules engine (campaign.core allowed); never reports, pages, the API or
publishing (import-linter, pyproject.toml).
"""
