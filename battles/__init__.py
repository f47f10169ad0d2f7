"""The battles app: a battle from its set-up to its after-action report, in sub-packages by job.

- ``rules/``: the Full Thrust engine, pure; ``systems/``: the other game systems (seeds 001–004);
- ``models/``, ``access``, ``log/``, ``readings``, ``signals``: the battle reads;
- ``services/`` and ``standings``: set-up, fielding, resolve, record, conclude, reopen;
  ``scoring/``: victory points, standings by points, fleet strength by turn;
- ``play/``: a battle fought turn by turn; ``reports/``: after-action reports and the desk;
- ``web/``, ``api/``, ``templatetags/``, ``management/``, ``admin``: pages, API, commands.

Imports: each sub-package only the layers below it, top to bottom: pages and API, reports,
play, services, battle reads, (campaign turns, factions, the league, campaign.core), systems,
rules; every module of the app must sit in a declared layer (import-linter, pyproject.toml).
"""
