"""The campaign-turn API (django-ninja routers mounted at ``/api/``): every action of the turn
pages for scripts, as thin handlers (non-members 404, service errors 400/403).

- ``turn``: the turn, its close, the treasuries and the scoping helper;
- ``orders``: repairs and construction; ``moves``: fleet movements.

Imports: any layer below the pages: the turn services, models, access and errors, factions
(scoping, models), the league (roles, API auth) and campaign.core; never the root API, the
URLs or publishing (import-linter, pyproject.toml).
"""
