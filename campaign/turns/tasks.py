"""Celery tasks of the campaign turn (beat schedule in ``campaign/settings.py``)."""

from celery import shared_task

from campaign.turns.closing import close_due_turns


@shared_task(name="turns.close_due_turns")
def close_due_turns_task() -> list[int]:
    """Close the open turns whose deadline has passed; returns their ids."""
    return [turn.pk for turn in close_due_turns()]
