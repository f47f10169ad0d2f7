"""Campaign turns (app label ``turns``): the league between battles — repair orders at
shipyards, construction, fleet moves, each faction's treasury, and the turn's close.

- ``models``: ``CampaignTurn``, ``RepairOrder``, ``Construction``, ``LedgerEntry``,
  ``FleetMove``;
- ``closing``: open, close and reopen a turn; ``schedule``, ``rates``: yard queues, costs;
- ``repairs``, ``building``, ``moves``, ``treasury``: the services; ``errors``: their error;
- ``access``: who reads a closed turn's summary; ``tasks``, ``management/``: due turns closed;
- ``demo``: the sample's first turn; ``admin``: staff views;
- ``web/``, ``api/``: the turn pages and API.

Imports: the turn modules sit below the battle layers and above factions: factions, the
league and campaign.core, never battles' models, services, play or reports (a battle's
services call the repairs, not the other way round); ``web/`` and ``api/`` are on the pages
layer (import-linter, pyproject.toml).
"""
