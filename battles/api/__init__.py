"""The battles app's django-ninja routers, mounted by the root API (``campaign.api``) at
``/api/``: thin handlers that scope through ``battles.access`` and call a service.

- ``battles``: battle reads, resolve or record a draft battle, its Monte-Carlo odds;
- ``actions``: set-up, preview, re-seed, record entries and confirmation, reopen, timeline;
- ``play``: turn-by-turn orders and the replay board;
- ``desk``: the chroniclers' desk (``battles.reports.desk``);
- ``rules``, ``systems``: exact odds, the rules in force, the other game systems' helpers;
- ``scoring``: standings by victory points, scoring rules, objectives met.

Imports: any layer below the pages: battles.reports, battles.play, battles.services,
battles.scoring, battles' models, scoping, log and readings, campaign turns, factions, the
league (its API auth), campaign.core, the game systems and the rules engine; never the root
API, the URLs or publishing (import-linter, pyproject.toml).
"""
