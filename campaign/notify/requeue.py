"""Deliveries left queued are queued again, so none is lost silently.

A delivery stays ``queued`` without a task on its way when the broker refused it after the
commit (logged by ``campaign.notify.events``) or a worker was lost past the broker's
redelivery. ``notify.requeue_stale`` (beat, every 15 minutes: ``CELERY_BEAT_SCHEDULE``)
queues again each delivery still queued and untouched for :data:`STALE_AFTER` — longer
than all its retries' waits together (60 + 120 + 240 s), so a delivery waiting for its
next retry is not sent twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import shared_task
from django.utils import timezone

from campaign.notify.models import Delivery
from campaign.notify.tasks import deliver

#: How long a queued delivery may stay untouched before it is queued again.
STALE_AFTER = timedelta(minutes=30)


def stale_deliveries_requeue(*, now: datetime | None = None) -> list[int]:
    """Queue again every delivery still ``queued`` whose row has not changed for
    :data:`STALE_AFTER` before ``now`` (default: the clock); returns their ids."""
    now = now or timezone.now()
    stale = list(
        Delivery.objects.filter(
            status=Delivery.Status.QUEUED, updated_at__lt=now - STALE_AFTER
        ).values_list("pk", flat=True)
    )
    for pk in stale:
        deliver.delay(pk)
    return stale


@shared_task(name="notify.requeue_stale", soft_time_limit=120, time_limit=180)
def requeue_stale() -> int:
    """Beat: :func:`stale_deliveries_requeue`; returns how many it queued again."""
    return len(stale_deliveries_requeue())
