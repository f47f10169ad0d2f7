"""Celery tasks of the league: the published site's refresh after a report changes.

``site_refresh`` rebuilds ``settings.SITE_ROOT`` (incremental: only pages whose inputs
changed are rewritten, ``campaign.publish``) when a site was baked there before; queue it
with :func:`site_refresh_request`, which waits for the transaction to commit and never
raises into the request that asked for it.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from celery import shared_task
from django.conf import settings
from django.db import transaction

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
    from .publish import MARKER, site_build

    out_dir = Path(settings.SITE_ROOT)
    if not (out_dir / MARKER).is_file():
        return {"built": False, "written": 0}
    result = site_build(out_dir=out_dir)
    return {"built": True, "written": len(result.written)}


def _run_site_refresh() -> None:
    try:
        site_refresh.delay()
    except Exception:  # a failed refresh is logged; the saved action stands
        logger.exception("site refresh failed")


def site_refresh_request(*, campaign_slug: str | None = None) -> None:
    """Queue :func:`site_refresh` once the current transaction commits (the whole site is
    refreshed: a campaign's report shows on its home, feed and search index too;
    ``campaign_slug`` is for the log)."""
    logger.info("site refresh requested for %s", campaign_slug or "every campaign")
    transaction.on_commit(functools.partial(_run_site_refresh))
