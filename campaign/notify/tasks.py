"""The delivery task: ``notify.deliver(delivery_id)``, queued once the event's transaction
commits (``campaign.notify.events``).

A failed attempt is retried with exponential backoff (``RETRY_BACKOFF`` seconds doubled at
each try, at most :data:`MAX_RETRIES` retries); after the last one the delivery is marked
``failed`` with its error, shown to the campaign's organisers and in the admin. A failure
that another try cannot mend (an address refused, the webhook removed) fails at once.
"""

from __future__ import annotations

from celery import shared_task

from campaign.notify.sending import DeliveryFailed, delivery_attempt

#: Retries after the first attempt (so 1 + MAX_RETRIES attempts in all).
MAX_RETRIES = 3
#: Seconds before the first retry; doubled at each one (60, 120, 240).
RETRY_BACKOFF = 60


@shared_task(
    bind=True, name="notify.deliver", max_retries=MAX_RETRIES, soft_time_limit=45, time_limit=60
)
def deliver(self, delivery_id: int) -> str | None:
    """Send delivery ``delivery_id`` (``campaign.notify.sending.delivery_attempt``);
    returns its status. Idempotent: a delivery already sent or failed is left alone."""
    last = self.request.retries >= MAX_RETRIES
    try:
        delivery = delivery_attempt(delivery_id=delivery_id, last=last)
    except DeliveryFailed as exc:
        if self.request.is_eager:
            # No broker (the development default): no worker will come back later, so the
            # tries follow at once, in-process; Celery's eager retry would raise instead.
            return self.apply(args=(delivery_id,), retries=self.request.retries + 1).get()
        raise self.retry(exc=exc, countdown=RETRY_BACKOFF * 2**self.request.retries) from exc
    return delivery.status if delivery else None
