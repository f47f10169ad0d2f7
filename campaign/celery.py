"""The Celery application (`celery -A campaign worker`).

Without ``CELERY_BROKER_URL`` the settings make every task run eagerly in-process;
with it, tasks go to the broker and a real worker runs them.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")

app = Celery("campaign")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Each app's `tasks` module, and those of the battles sub-packages that have tasks.
app.autodiscover_tasks()
app.autodiscover_tasks(["battles.reports", "battles.play"])
