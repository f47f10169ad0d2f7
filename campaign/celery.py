"""The Celery application (`celery -A campaign worker`).

Without ``CELERY_BROKER_URL`` the settings make every task run eagerly in-process
(DESIGN.md §7); with it, tasks go to the broker and a real worker runs them.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")

app = Celery("campaign")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
