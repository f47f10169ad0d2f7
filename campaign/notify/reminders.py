"""The "deadline 24 hours away" reminder of a campaign turn, and its beat task.

``CELERY_BEAT_SCHEDULE`` runs ``notify.remind_deadlines`` every 15 minutes
(``campaign/settings.py``); without a broker, cron ``manage.py notify_deadlines``. Each run
tells the members of every campaign whose open turn closes within 24 hours, once per turn
and recipient: the deliveries carry the turn, and a unique constraint on (turn, kind,
user) — (turn, kind, webhook) for the campaign's channel — keeps a second run, or two runs
at once, from telling anyone twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import shared_task
from django.urls import reverse
from django.utils import timezone

from campaign.notify.events import campaign_members, notify_event
from campaign.notify.models import Delivery, Kind
from campaign.notify.texts import absolute, deadline_text
from campaign.turns.models import CampaignTurn

#: How long before a turn's deadline its members are reminded.
REMINDER_AHEAD = timedelta(hours=24)


def deadline_reminders_send(*, now: datetime | None = None) -> list[Delivery]:
    """Remind the members of every open campaign turn whose deadline is after ``now``
    (default: the clock) and at most 24 hours later; returns the deliveries written (none
    for those reminded before)."""
    now = now or timezone.now()
    turns = CampaignTurn.objects.filter(
        status=CampaignTurn.Status.OPEN, deadline__gt=now, deadline__lte=now + REMINDER_AHEAD
    ).select_related("campaign")
    written: list[Delivery] = []
    for turn in turns:
        campaign = turn.campaign
        written += notify_event(
            kind=Kind.DEADLINE_NEAR,
            campaign=campaign,
            users=campaign_members(campaign),
            link=absolute(reverse("turn-page", kwargs={"slug": campaign.slug})),
            params={"n": turn.number, "deadline": deadline_text(turn.deadline, campaign.time_zone)},
            turn=turn,
        )
    return written


@shared_task(name="notify.remind_deadlines", soft_time_limit=120, time_limit=180)
def remind_deadlines() -> int:
    """Beat: :func:`deadline_reminders_send`; returns how many deliveries it wrote."""
    return len(deadline_reminders_send())
