"""The "deadline 24 hours away" reminder: once per turn and member, however often beat
runs it."""

import io
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaign.notify.models import Delivery
from campaign.notify.reminders import deadline_reminders_send, remind_deadlines
from campaign.notify.webhooks import campaign_webhook_save
from campaign.turns.closing import campaign_turn_open


def _open(mailed, hours):
    deadline = timezone.now() + timedelta(hours=hours)
    return campaign_turn_open(campaign=mailed.campaign, user=mailed.organiser, deadline=deadline)


def test_a_turn_closing_within_24_hours_is_reminded_once(
    mailed, receiver, django_capture_on_commit_callbacks
):
    campaign_webhook_save(
        campaign=mailed.campaign, user=mailed.organiser, url=receiver.url, kinds=["deadline_near"]
    )
    turn = _open(mailed, 20)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert remind_deadlines.delay().get() == 5  # four members and the webhook
        assert remind_deadlines.delay().get() == 0  # beat again: nobody twice
        out = io.StringIO()
        call_command("notify_deadlines", stdout=out)
        assert out.getvalue() == "0 reminder(s) queued\n"
    rows = Delivery.objects.filter(kind="deadline_near")
    assert rows.count() == 5 and {d.turn_id for d in rows} == {turn.pk}
    assert {d.status for d in rows} == {"sent"}
    assert sorted(m.to[0] for m in mail.outbox) == [
        "chronicler@example.org",
        "norge_player@example.org",
        "organiser@example.org",
        "qatzrin_player@example.org",
    ]
    assert mail.outbox[0].subject == "Test league\u202f: le tour 1 se clôt dans moins de 24 heures"
    assert len(receiver.posts) == 1


def test_a_turn_further_away_or_without_deadline_is_not_reminded(mailed):
    _open(mailed, 30)
    assert deadline_reminders_send() == []
    # …until the clock comes within 24 hours of it.
    later = timezone.now() + timedelta(hours=7)
    assert len(deadline_reminders_send(now=later)) == 4


def test_the_database_refuses_a_second_reminder(mailed):
    turn = _open(mailed, 10)
    (first, *_rest) = deadline_reminders_send()
    with pytest.raises(IntegrityError), transaction.atomic():
        Delivery.objects.create(
            campaign=turn.campaign,
            kind="deadline_near",
            channel="email",
            user=first.user,
            turn=turn,
            language="fr",
            subject="again",
            body="again",
        )
