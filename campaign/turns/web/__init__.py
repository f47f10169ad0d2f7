"""The campaign-turn pages: the turn page (organiser: the turn, its deadline, a preview of the
close, yards' queues, treasuries; a player: their faction's), repair, construction and
movement forms; thin views that scope through the ``access`` helpers and call a service.

- ``turn``: the turn page, repair and construction forms, POST actions;
- ``moves``: fleet movement orders; ``urls``: the URL patterns.

Imports: any layer below the pages: the turn services, models, access and errors, factions
(scoping, models, type words), the league and campaign.core; never the root API, the URLs or
publishing (import-linter, pyproject.toml).
"""
