"""Start-up: what only reads the settings loads no Celery, WeasyPrint, networkx, apprise or ninja;
once Django is set up the project's Celery app is current (``@shared_task`` binds to it)
and ``celery -A campaign`` finds it (campaign/__init__.py, campaign/apps.py); the site
refresh task and the site builder load in a worker, which finds every task, not at set-up."""

import ast
import os
import subprocess
import sys

from tests.conftest import ROOT

HEAVY = ("celery", "weasyprint", "networkx", "apprise", "ninja")
#: Task modules and what they build, loaded by a worker, not at set-up.
WORKERS_OWN = ("campaign.publish", "campaign.tasks")

PROBE = """
import sys
heavy = {heavy!r}
import campaign.settings
print(sorted(m for m in heavy if m in sys.modules))
import django
django.setup()
print(sorted(m for m in heavy if m in sys.modules))
print(sorted(m for m in {workers_own!r} if m in sys.modules))
from celery import current_app
from celery.app.utils import find_app
import campaign
from battles.reports.tasks import render_report
ours = campaign.celery_app
print(current_app.main, render_report.app is ours, find_app("campaign") is ours)
"""


def test_settings_load_no_celery_and_the_apps_load_no_heavy_library():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "campaign.settings"}
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY, workers_own=WORKERS_OWN)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["[]", "['celery']", "[]", "campaign True True"]


WORKER = """
import django
from campaign.celery import app  # what `celery -A campaign worker` loads first
django.setup()
app.loader.import_default_modules()  # the worker's start: every app's task modules
from django.conf import settings
print(sorted(name for name in app.tasks if not name.startswith("celery.")))
print(sorted({entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}))
"""


def test_a_worker_finds_every_task_by_name():
    """The tasks sent by name (``campaign.refresh`` sends ``campaign.site_refresh``) and the
    beat's are registered in a worker, though set-up no longer loads their modules."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "campaign.settings", "CELERY_SKIP_CHECKS": "1"}
    result = subprocess.run(
        [sys.executable, "-c", WORKER], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    tasks, beat = (ast.literal_eval(line) for line in result.stdout.splitlines())
    assert tasks == [
        "battles.play_due_turns",
        "battles.render_report",
        "battles.render_report_pdf_in",
        "campaign.site_refresh",
        "notify.deliver",
        "notify.remind_deadlines",
        "notify.requeue_stale",
        "turns.close_due_turns",
    ]
    assert set(beat) <= set(tasks)
