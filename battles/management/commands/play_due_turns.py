"""``python manage.py play_due_turns``: play the current turn of every turn-by-turn battle
whose orders deadline has passed (a side without orders takes the auto-resolve tactics).

What the Celery beat task ``battles.play_due_turns`` does every minute, for the embedded
defaults (no broker): schedule it with cron, e.g.
``* * * * * cd /srv/admiralty && .venv/bin/python manage.py play_due_turns``.
"""

from typing import Any

from django.core.management.base import BaseCommand

from battles.play.game_turns import turns_play_due


class Command(BaseCommand):
    help = "Play the turn-by-turn battle turns whose deadline has passed (run it from cron)."

    def handle(self, *args: Any, **options: Any) -> None:
        played = turns_play_due()
        for battle_id in played:
            self.stdout.write(f"played the current turn of battle {battle_id}")
        self.stdout.write(f"{len(played)} turn(s) played")
