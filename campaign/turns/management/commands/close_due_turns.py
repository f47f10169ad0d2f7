"""``python manage.py close_due_turns``: close every open turn whose deadline has passed.

What the Celery beat task does, for the embedded defaults (no broker): schedule it with
cron, e.g. ``*/5 * * * * cd /srv/admiralty && .venv/bin/python manage.py close_due_turns``.
"""

from django.core.management.base import BaseCommand

from campaign.turns.closing import close_due_turns


class Command(BaseCommand):
    help = "Close the campaign turns whose deadline has passed (run it from cron)."

    def handle(self, *args, **options):
        closed = close_due_turns()
        for turn in closed:
            self.stdout.write(f"closed {turn.campaign.slug} turn {turn.number}")
        self.stdout.write(f"{len(closed)} turn(s) closed")
