"""The published site's refresh after a public change: its Celery task, and the receivers
(connected in ``AdmiraltyConfig.ready``) of every change a public page shows — a battle
concluded or recorded (``battles.signals.battle_concluded``, ``battle_results_recorded``),
a report edited, published or withdrawn (``report_changed``), a battle reopened, a
campaign turn closed or reopened, an organiser's *Rebuild the site*
(``campaign.core.signals.public_change``).

``site_refresh`` rebuilds ``settings.SITE_ROOT`` (incremental: only pages whose inputs
changed are rewritten, ``campaign.publish``) when a site was baked there before (a full
request builds it anyway); queue it with :func:`site_refresh_request`, which waits for the
transaction to commit and never raises into the request that asked for it. Each build is
a ``SiteBuild`` row (``campaign.league.site_builds``): when, and its result or error.

With a broker the task goes to a worker after :data:`COALESCE_SECONDS`; requests made
before it starts join the queued build (one build for a burst). Without one (the
development default: Celery eager, in-process) the refresh runs in one background thread
of the web process, after the response, so a click never waits for a site build: requests
arriving while a build runs ask for one more build after it (coalesced), never for one each.
Until the new site is swapped in (``campaign.publish.output``: one link renamed) the old one
is served whole: its pages link only the PDFs copied with them, so nothing links stale
content, it is only a few seconds behind. A process that exits waits for the thread
(not a daemon), so a publish made from a command is not lost.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import connections, transaction
from django.dispatch import receiver

from battles.signals import battle_concluded, battle_results_recorded, report_changed
from campaign.core.signals import public_change
from campaign.league import site_builds
from campaign.publish import MARKER, site_build

logger = logging.getLogger(__name__)


#: Seconds a queued build waits for the rest of a burst before a worker runs it.
COALESCE_SECONDS = 5


def _site_exists() -> bool:
    return (Path(settings.SITE_ROOT) / MARKER).is_file()


@shared_task(name="campaign.site_refresh", soft_time_limit=600, time_limit=900)
def site_refresh(
    build_id: int | None = None, full: bool = False, user_id: int | None = None
) -> dict[str, object]:
    """Rebuild the site in ``settings.SITE_ROOT`` if ``build_site`` made it (its marker
    file is there) or ``full``; else do nothing. ``build_id``: the queued ``SiteBuild``
    this run is (None: a new one is recorded, asked for by ``user_id``). A failed build is
    recorded with its error and logged, never raised. Returns ``{"built": bool, "written":
    n files}``."""
    build = site_builds.build_start(build_id=build_id, full=full, user_id=user_id)
    if build_id is not None and build is None:
        return {"built": False, "written": 0}  # delivered twice: that build is over
    full = full or bool(build and build.full)
    if not full and not _site_exists():
        if build is not None:
            site_builds.build_finish(build, error="no site was built in SITE_ROOT")
        return {"built": False, "written": 0}
    try:
        result = site_build(out_dir=Path(settings.SITE_ROOT))
    except Exception as exc:  # recorded for the organisers; the next change tries again
        logger.exception("site build failed")
        if build is not None:
            site_builds.build_finish(build, error=f"{type(exc).__name__}: {exc}")
        return {"built": False, "written": 0}
    if build is not None:
        site_builds.build_finish(build, written=len(result.written))
    return {"built": True, "written": len(result.written)}


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
                site_refresh.run(full=full, user_id=user_id)
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
        if not full and not _site_exists():
            return  # no site to keep fresh: nothing queued, nothing recorded
        if settings.CELERY_TASK_ALWAYS_EAGER:
            _refresh_in_background(full, getattr(user, "pk", None))
            return
        build = site_builds.build_queue(full=full, user=user)
        if build is not None:  # else it joined the build already queued
            site_refresh.apply_async(kwargs={"build_id": build.pk}, countdown=COALESCE_SECONDS)
    except Exception:  # a failed refresh is logged; the saved action stands
        logger.exception("site refresh failed")


def site_refresh_request(
    *, campaign_slug: str | None = None, full: bool = False, user: Any = None
) -> None:
    """Ask for :func:`site_refresh` once the current transaction commits (the whole site is
    refreshed: a campaign's change shows on its home, feed and search index too;
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


@receiver(report_changed, dispatch_uid="site-refresh-on-report-changed")
def refresh_on_report_changed(sender: Any, *, battle: Any, **kwargs: Any) -> None:
    """A report was edited, published or withdrawn (``battles.signals.report_changed``,
    sent after the commit): refresh the published site."""
    site_refresh_request(campaign_slug=battle.campaign.slug)


@receiver(battle_concluded, dispatch_uid="site-refresh-on-battle-concluded")
@receiver(battle_results_recorded, dispatch_uid="site-refresh-on-results-recorded")
def refresh_on_battle_concluded(sender: Any, *, battle: Any, **kwargs: Any) -> None:
    """A battle was concluded (resolved, recorded, played out) or another system's battle
    recorded, inside its transaction: refresh the site once it commits."""
    site_refresh_request(campaign_slug=battle.campaign.slug)


@receiver(public_change, dispatch_uid="site-refresh-on-public-change")
def refresh_on_public_change(
    sender: Any, *, campaign: Any = None, full: bool = False, user: Any = None, **kwargs: Any
) -> None:
    """A battle reopened, a campaign turn closed or reopened, or a rebuild asked for
    (``campaign.core.signals.public_change``): refresh the site once it commits."""
    site_refresh_request(campaign_slug=getattr(campaign, "slug", None), full=full, user=user)
