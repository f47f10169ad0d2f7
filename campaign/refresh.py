"""Requests for the published site's refresh (``campaign.site_refresh``, the task of
``campaign.tasks``), made by the receivers of ``campaign.receivers`` on every public change.

Light on purpose: it is loaded at set-up, with the receivers (``AdmiraltyConfig.ready``),
and imports neither the site builder (``campaign.publish``: 0.5 s of CPU at start-up, for
every command) nor the task module. The task is sent by its name; with a broker a worker,
which loads the task modules (``celery -A campaign worker``), runs it.

:func:`site_refresh_request` asks for a refresh once the current transaction commits and
never raises into the request that asked for it. With a broker the task goes to a worker
after :data:`COALESCE_SECONDS`; requests made before it starts join the queued build (one
build for a burst, ``campaign.league.site_builds``). Without one (the development default:
Celery eager, in-process) the refresh runs in one background thread of the web process,
after the response, so a click never waits for a site build: requests arriving while a
build runs ask for one more build after it (coalesced), never for one each. That thread is
this process's worker: it loads the task module as a worker does (Celery's loader) and runs
the task. Until the new site is swapped in (``campaign.publish.output``: one link renamed)
the old one is served whole: its pages link only the PDFs copied with them, so nothing links
stale content, it is only a few seconds behind. A process that exits waits for the thread
(not a daemon), so a publish made from a command is not lost.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections, transaction

import campaign
from campaign.league import site_builds

logger = logging.getLogger(__name__)

#: The file ``build_site`` leaves in a site it built (``campaign.publish.output``).
MARKER = ".admiralty-site"

#: The refresh task's name (``campaign.tasks.site_refresh``) and the module defining it.
SITE_REFRESH = "campaign.site_refresh"
SITE_REFRESH_MODULE = "campaign.tasks"

#: Seconds a queued build waits for the rest of a burst before a worker runs it.
COALESCE_SECONDS = 5


def site_exists() -> bool:
    """Whether ``build_site`` baked a site in ``settings.SITE_ROOT`` (its marker is there)."""
    return (Path(settings.SITE_ROOT) / MARKER).is_file()


def _site_refresh_in_process(full: bool, user_id: int | None) -> None:
    """Run the refresh task here, as a worker would: its module loaded by Celery's loader
    (the first time only), the task found in the app's registry by name."""
    app = campaign.celery_app
    if SITE_REFRESH not in app.tasks:
        app.loader.import_task_module(SITE_REFRESH_MODULE)
    app.tasks[SITE_REFRESH].run(full=full, user_id=user_id)


class _Background:
    """The one background refresher of this process (no broker): at most one thread,
    ``again`` when more refreshes were asked for while it built, ``full`` when one of
    them asked for a full build (``user_id``: who asked for it)."""

    lock = threading.Lock()
    thread: threading.Thread | None = None
    again = False
    full = False
    user_id: int | None = None


def _background_loop() -> None:
    try:
        while True:
            with _Background.lock:
                _Background.again = False
                full, _Background.full = _Background.full, False
                user_id, _Background.user_id = _Background.user_id, None
            try:
                _site_refresh_in_process(full, user_id)
            except Exception:  # a failed refresh is logged; the next request tries again
                logger.exception("background site refresh failed")
            with _Background.lock:
                if not _Background.again:
                    _Background.thread = None
                    return
    finally:
        connections.close_all()  # this thread's own database connections


def _refresh_in_background(full: bool = False, user_id: int | None = None) -> None:
    with _Background.lock:
        _Background.full = _Background.full or full
        _Background.user_id = user_id or _Background.user_id
        if _Background.thread is not None:
            _Background.again = True
            return
        _Background.thread = threading.Thread(
            target=_background_loop, name="site-refresh", daemon=False
        )
        _Background.thread.start()


def site_refresh_wait(timeout: float | None = None) -> bool:
    """Wait for this process's background refresh (if any) to finish; True when none is
    left running. For tests and scripts; the web process never waits."""
    while True:
        with _Background.lock:
            thread = _Background.thread
        if thread is None:
            return True
        thread.join(timeout)
        if thread.is_alive():
            return False


def _run_site_refresh(full: bool = False, user: Any = None) -> None:
    try:
        if not full and not site_exists():
            return  # no site to keep fresh: nothing queued, nothing recorded
        if settings.CELERY_TASK_ALWAYS_EAGER:
            _refresh_in_background(full, getattr(user, "pk", None))
            return
        build = site_builds.build_queue(full=full, user=user)
        if build is not None:  # else it joined the build already queued
            campaign.celery_app.send_task(
                SITE_REFRESH, kwargs={"build_id": build.pk}, countdown=COALESCE_SECONDS
            )
    except Exception:  # a failed refresh is logged; the saved action stands
        logger.exception("site refresh failed")


def site_refresh_request(
    *, campaign_slug: str | None = None, full: bool = False, user: Any = None
) -> None:
    """Ask for the ``campaign.site_refresh`` task once the current transaction commits (the
    whole site is refreshed: a campaign's change shows on its home, feed and search index too;
    ``campaign_slug`` is for the log; ``full``: build even where no site was baked; ``user``
    who asked, recorded with a queued build): queued to the broker, or without one run in
    this process's background thread after the response (see the module docstring)."""
    logger.info("site refresh requested for %s", campaign_slug or "every campaign")
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        # Several changes of one transaction (two records, then a turn closed) ask once:
        # join a request it made already. One still listed is as safe as this one: the
        # savepoints it was made in are released (past rolling back) or still open around
        # this change (a rollback drops both); a rolled-back one is no longer listed.
        for _sids, func, _robust in connection.run_on_commit:
            if isinstance(func, _Request):
                func.full = func.full or full
                func.user = func.user if func.user is not None else user
                return
    transaction.on_commit(_Request(full, user))


class _Request:
    """A site refresh waiting for its transaction's commit (joined by later requests of
    the same transaction)."""

    def __init__(self, full: bool, user: Any):
        self.full, self.user = full, user

    def __call__(self) -> None:
        _run_site_refresh(self.full, self.user)
