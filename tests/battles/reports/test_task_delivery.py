"""A task surviving a dying worker, the settings half (the real-worker half is
tests/integration/test_worker_lost.py): a report task whose worker dies is delivered
again, never acknowledged and lost."""

from __future__ import annotations

from django.conf import settings

from battles.reports.tasks import render_report
from campaign.celery import app


def test_a_task_of_a_dead_worker_is_requeued_not_acknowledged():
    assert app.conf.task_acks_late is True and render_report.acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1


def test_redis_redelivers_after_the_longest_task_not_after_an_hour():
    visibility = app.conf.broker_transport_options["visibility_timeout"]
    assert settings.CELERY_TASK_TIME_LIMIT < visibility <= 600
    assert render_report.time_limit < visibility
    assert app.conf.broker_transport_options["unacked_restore_throttle"] == 1
