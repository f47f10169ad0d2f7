"""Celery tasks of turn-by-turn battles (beat schedule in ``campaign/settings.py``)."""

from celery import shared_task

from battles.play.game_turns import turns_play_due


@shared_task(name="battles.play_due_turns", soft_time_limit=120, time_limit=180)
def play_due_turns() -> list[int]:
    """Play every turn-by-turn battle's turn whose orders deadline has passed
    (``battles.play.game_turns.turns_play_due``); schedule it every minute with Celery beat.
    Idempotent: a turn is played once (the battle row is locked while it is)."""
    return turns_play_due()
