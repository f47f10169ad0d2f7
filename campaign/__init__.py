"""The Admiralty project package: settings, root URLs, the Celery app and WSGI, and what sees
every app; the league (``league/``) and campaign turns (``turns/``) are apps inside it.

- ``settings``, ``urls``, ``celery``, ``wsgi``; ``tasks``: the published site's refresh;
- ``api/``: the root API; ``publish/``: the static-site builder; ``sample/``: the sample;
- ``web/``: the league pages; ``core/``: shared helpers every app may use;
- ``management/``, ``templatetags/``: site-wide commands and template tags.

Imports: ``urls``, ``tasks``, ``api``, ``publish``, ``management``, ``sample`` and
``templatetags`` are the top layer and may import every app; ``web`` and ``turns`` sit above
the league, the league above ``core``; each sub-package says what it may import
(import-linter, pyproject.toml).
"""

from campaign.celery import app as celery_app

__all__ = ("celery_app",)
