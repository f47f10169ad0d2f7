"""The published site's builds as rows (``SiteBuild``): asked for, coalesced, started and
finished; and the organisers' *Rebuild the site*.

``campaign.tasks`` runs the builds: it calls :func:`build_queue` when a change asks for one
(with a broker), :func:`build_start` and :func:`build_finish` around the build itself. A
request that finds a build already queued joins it (one build for a burst); one arriving
while a build runs queues the next. A queued row older than :data:`STALE_AFTER` (its task
was lost with the broker) is marked failed and replaced, and so is a row running longer
than that (its worker was lost mid-build), so the site never stops refreshing and the
organisers' page never shows a build "in progress" forever.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaign.core.signals import public_change
from campaign.league.models import Campaign, SiteBuild
from campaign.league.roles import require_organiser

#: Longer than a build may run (the task's hard time limit, 900 s).
STALE_AFTER = timedelta(minutes=20)

_FINISHED = (SiteBuild.Status.SUCCEEDED, SiteBuild.Status.FAILED)


def _person(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def site_rebuild_request(*, campaign: Campaign, user: Any) -> None:
    """An organiser of ``campaign`` (or staff) asks for a full build of the site, run once
    the transaction commits (``campaign.tasks``: with a broker by a worker, else in this
    process after the response). Raises ``campaign.core.refusals.Refused`` (404 outside
    the campaign, 403 for its other members)."""
    require_organiser(user, campaign)
    with transaction.atomic():
        public_change.send(sender=SiteBuild, campaign=campaign, full=True, user=user)


def build_queue(*, full: bool, user: Any = None) -> SiteBuild | None:
    """The new queued build, or None when one was queued already (it now builds ``full``
    if either asked so): the caller sends a task only for a new row."""
    now = timezone.now()
    with transaction.atomic():
        SiteBuild.objects.filter(
            status=SiteBuild.Status.QUEUED, requested_at__lt=now - STALE_AFTER
        ).update(status=SiteBuild.Status.FAILED, finished_at=now, error="never started")
        # A build running longer than the task may run lost its worker: it never finishes.
        SiteBuild.objects.filter(
            status=SiteBuild.Status.RUNNING, started_at__lt=now - STALE_AFTER
        ).update(status=SiteBuild.Status.FAILED, finished_at=now, error="never finished")
        try:
            with transaction.atomic():
                return SiteBuild.objects.create(full=full, requested_by=_person(user))
        except IntegrityError:  # one is queued: join it
            if full:
                SiteBuild.objects.filter(status=SiteBuild.Status.QUEUED).update(full=True)
            return None


def build_start(
    *, build_id: int | None = None, full: bool = False, user_id: int | None = None
) -> SiteBuild | None:
    """Mark build ``build_id`` running (None when it is finished already: a task delivered
    twice), or without an id record a new running build asked for by ``user_id`` (None: a
    change, not a person). Requests from now on queue the next build."""
    now = timezone.now()
    if build_id is None:
        return SiteBuild.objects.create(
            status=SiteBuild.Status.RUNNING,
            full=full,
            requested_by_id=user_id,
            requested_at=now,
            started_at=now,
        )
    with transaction.atomic():
        build = (
            SiteBuild.objects.select_for_update()
            .filter(pk=build_id)
            .exclude(status__in=_FINISHED)
            .first()
        )
        if build is None:
            return None
        build.status, build.started_at = SiteBuild.Status.RUNNING, now
        build.save(update_fields=["status", "started_at"])
        return build


def build_finish(build: SiteBuild, *, written: int = 0, error: str = "") -> SiteBuild:
    """Record ``build``'s end: succeeded with ``written`` files, or failed with ``error``."""
    build.status = SiteBuild.Status.FAILED if error else SiteBuild.Status.SUCCEEDED
    build.finished_at = timezone.now()
    build.written = written
    build.error = error[:2000]
    build.save(update_fields=["status", "finished_at", "written", "error"])
    return build


def site_build_state() -> dict[str, SiteBuild | None]:
    """``{"last": the latest finished build, "pending": the latest queued or running one}``
    (None when there is none), for the organisers' view of the site."""
    return {
        "last": SiteBuild.objects.filter(status__in=_FINISHED)
        .order_by("-finished_at", "-pk")
        .first(),
        "pending": SiteBuild.objects.exclude(status__in=_FINISHED).first(),
    }
