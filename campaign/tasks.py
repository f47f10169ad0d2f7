"""The published site's refresh as a Celery task, ``campaign.site_refresh``: run by a worker
(``celery -A campaign worker`` loads this module), or without a broker by the web process's
background thread (``campaign.refresh``, which asks for it by name on every public change:
``campaign.receivers``). Not loaded at set-up: it imports the site builder.

``site_refresh`` rebuilds ``settings.SITE_ROOT`` (incremental: only pages whose inputs
changed are rewritten, ``campaign.publish``) when a site was baked there before (a full
request builds it anyway). Each build is a ``SiteBuild`` row
(``campaign.league.site_builds``): when, and its result or error.
"""

from __future__ import annotations

import logging
from pathlib import Path

from celery import shared_task
from django.conf import settings

from campaign.league import site_builds
from campaign.publish import site_build
from campaign.refresh import SITE_REFRESH, site_exists

logger = logging.getLogger(__name__)


@shared_task(name=SITE_REFRESH, soft_time_limit=600, time_limit=900)
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
    if not full and not site_exists():
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
