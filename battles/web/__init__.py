"""The battle pages (Django templates and htmx): thin views that look up, scope through
``battles.access``, call a service and render.

- ``battles``: battle pages; ``actions``: set up, preview, conclude, record, confirm, reopen;
- ``play``: turn-by-turn pages and the replay viewer; ``desk``: the chroniclers' desk;
- ``systems``, ``system_forms``, ``record_other``: the other game systems' helpers, records;
- ``media``: report files served under the battle page's access rules;
- ``scoring``: the standings page (victory points), the scoring rules, objectives met;
- ``forms``, ``urls``, ``system_urls``: forms and URL patterns.

Imports: any layer below the pages: battles.reports, battles.play, battles.services,
battles.scoring, battles' models, scoping and log, the battle template tags, factions, the
league, campaign.core, the game systems and the rules engine; never the root API, the URLs
or publishing (import-linter, pyproject.toml).
"""
