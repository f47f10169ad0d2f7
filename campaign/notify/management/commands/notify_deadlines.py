"""``manage.py notify_deadlines``: the deadline reminder, and deliveries left queued queued
again, for cron where no broker runs beat."""

from django.core.management.base import BaseCommand

from campaign.notify.reminders import deadline_reminders_send
from campaign.notify.requeue import stale_deliveries_requeue


class Command(BaseCommand):
    help = "Remind the members of campaign turns closing within 24 hours (once per turn)."

    def handle(self, *args, **options):
        written = deadline_reminders_send()
        self.stdout.write(f"{len(written)} reminder(s) queued")
        again = stale_deliveries_requeue()
        if again:
            self.stdout.write(f"{len(again)} delivery(ies) left queued, queued again")
