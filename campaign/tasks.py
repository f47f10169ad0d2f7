"""The published site's refresh after a report changes: its Celery task, and the receiver
of ``battles.signals.report_changed`` (connected in ``AdmiraltyConfig.ready``).

``site_refresh`` rebuilds ``settings.SITE_ROOT`` (incremental: only pages whose inputs
changed are rewritten, ``campaign.publish``) when a site was baked there before; queue it
with :func:`site_refresh_request`, which waits for the transaction to commit and never
raises into the request that asked for it.

With a broker the task goes to a worker. Without one (the development default: Celery
eager, in-process) the refresh runs in one background thread of the web process, after
the response, so a chronicler's click never waits for a site build: requests arriving
while a build runs ask for one more build after it (coalesced), never for one each.
Until the new site is swapped in (``campaign.publish.output``: one link renamed) the old one
is served whole: its pages link only the PDFs copied with them, so nothing links stale
content, it is only a few seconds behind. A process that exits waits for the thread
(not a daemon), so a publish made from a command is not lost.
"""

from __future__ import annotations

import functools
import logging
import threading
from pathlib import Path
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import connections, transaction
from django.dispatch import receiver

from battles.signals import report_changed
from campaign.publish import MARKER, site_build

logger = logging.getLogger(__name__)


@shared_task(
    name="campaign.site_refresh",
    autoretry_for=(OSError,),
    retry_backoff=5,
    max_retries=3,
    soft_time_limit=600,
    time_limit=900,
)
def site_refresh() -> dict[str, object]:
    """Rebuild the site in ``settings.SITE_ROOT`` if ``build_site`` made it (its marker
    file is there); else do nothing. Returns ``{"built": bool, "written": n pages}``."""
    out_dir = Path(settings.SITE_ROOT)
    if not (out_dir / MARKER).is_file():
        return {"built": False, "written": 0}
    result = site_build(out_dir=out_dir)
    return {"built": True, "written": len(result.written)}


class _Background:
    """The one background refresher of this process (no broker): at most one thread, and
    ``again`` when more refreshes were asked for while it built."""

    lock = threading.Lock()
    thread: threading.Thread | None = None
    again = False


def _background_loop() -> None:
    try:
        while True:
            with _Background.lock:
                _Background.again = False
            try:
                site_refresh.run()
            except Exception:  # a failed refresh is logged; the next request tries again
                logger.exception("background site refresh failed")
            with _Background.lock:
                if not _Background.again:
                    _Background.thread = None
                    return
    finally:
        connections.close_all()  # this thread's own database connections


def _refresh_in_background() -> None:
    with _Background.lock:
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


def _run_site_refresh() -> None:
    try:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            _refresh_in_background()
        else:
            site_refresh.delay()
    except Exception:  # a failed refresh is logged; the saved action stands
        logger.exception("site refresh failed")


def site_refresh_request(*, campaign_slug: str | None = None) -> None:
    """Ask for :func:`site_refresh` once the current transaction commits (the whole site is
    refreshed: a campaign's report shows on its home, feed and search index too;
    ``campaign_slug`` is for the log): queued to the broker, or without one run in this
    process's background thread after the response (see the module docstring)."""
    logger.info("site refresh requested for %s", campaign_slug or "every campaign")
    transaction.on_commit(functools.partial(_run_site_refresh))


@receiver(report_changed, dispatch_uid="site-refresh-on-report-changed")
def refresh_on_report_changed(sender: Any, *, battle: Any, **kwargs: Any) -> None:
    """A report was edited, published or withdrawn (``battles.signals.report_changed``,
    sent after the commit): refresh the published site."""
    site_refresh_request(campaign_slug=battle.campaign.slug)
