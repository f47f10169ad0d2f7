"""Start-up: what only reads the settings loads no Celery, WeasyPrint, networkx or apprise;
once Django is set up the project's Celery app is current (``@shared_task`` binds to it)
and ``celery -A campaign`` finds it (campaign/__init__.py, campaign/apps.py)."""

import os
import subprocess
import sys

from tests.conftest import ROOT

HEAVY = ("celery", "weasyprint", "networkx", "apprise")

PROBE = """
import sys
heavy = {heavy!r}
import campaign.settings
print(sorted(m for m in heavy if m in sys.modules))
import django
django.setup()
print(sorted(m for m in heavy if m in sys.modules))
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
        [sys.executable, "-c", PROBE.format(heavy=HEAVY)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["[]", "['celery']", "campaign True True"]
