"""The beat task and the cron command close the turns past their deadline."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

from campaign.turns.closing import campaign_turn_open
from campaign.turns.tasks import close_due_turns_task

pytestmark = pytest.mark.django_db


def test_beat_schedules_the_task():
    entry = settings.CELERY_BEAT_SCHEDULE["close-due-turns"]
    assert entry["task"] == close_due_turns_task.name == "turns.close_due_turns"


def test_task_and_command_close_only_due_turns(sample, capsys):
    s = sample
    turn = campaign_turn_open(
        campaign=s.campaign, user=s.organiser, deadline=timezone.now() + timedelta(hours=1)
    )
    assert close_due_turns_task.delay().get() == []
    turn.deadline = timezone.now() - timedelta(seconds=1)
    turn.save()
    call_command("close_due_turns")
    assert "closed sample turn 1" in capsys.readouterr().out
    turn.refresh_from_db()
    assert turn.status == "closed"
    assert close_due_turns_task.delay().get() == []
