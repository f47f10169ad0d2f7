"""After-action reports: the drafted Markdown, one context rendered as the battle page, the PDF
and the site page, the report files and their Celery tasks, and the chroniclers' desk
services.

- ``draft``: the drafted Markdown; ``desk``: a report edited, published, withdrawn;
- ``context``, ``turn_log``: the one context of the three renderings;
- ``files``, ``keys``, ``queue``, ``tasks``: rendered files, their keys, queueing, Celery;
- ``pdf``, ``pdfs``, ``pdf_worker``, ``pdf_svg_text``, ``data_uri``: the PDF (WeasyPrint);
- ``receivers``: what reports do on the battle signals; ``checks``: system checks.

Imports: battles.play, battles.services, battles' models, log, scoping and signals, the game
systems, factions, the league and campaign.core; never pages, the API or publishing
(import-linter, pyproject.toml).
"""
