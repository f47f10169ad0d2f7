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

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from celery import Celery

__all__ = ("celery_app",)


def __getattr__(name: str) -> Celery:
    """``campaign.celery_app``: the Celery app (``campaign.celery``), created on first use.

    Not imported with the package (Celery's usual ``__init__``): loading the settings
    imports this package, and Celery cost every process that does (``manage.py help``, a
    PDF pool's process) about 0.2 s of CPU. ``AdmiraltyConfig.ready`` creates the app
    once Django is set up, before any task is sent, so ``@shared_task`` binds to it;
    ``celery -A campaign worker`` finds ``campaign.celery.app`` by itself."""
    if name == "celery_app":
        # Celery, loaded lazily for start-up speed (the docstring above).
        from campaign.celery import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
