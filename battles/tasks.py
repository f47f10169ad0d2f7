"""Celery tasks of the battles app: thin adapters that take ids and call a service.

``render_report`` is idempotent (same battle, same version -> same file, not re-rendered;
see ``battles.services.report_render``), has time limits and retries transient failures
(file system, database) with back-off. Queue it with ``battles.services.report_request``,
which waits for the transaction to commit.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from .services import report_render


@shared_task(
    name="battles.render_report",
    autoretry_for=(OSError, OperationalError),
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=3,
    soft_time_limit=120,
    time_limit=180,
    acks_late=True,
)
def render_report(battle_id: int, fmt: str) -> dict[str, object]:
    """Render battle ``battle_id``'s report as ``fmt`` ("html" or "pdf").

    Returns ``{"report_id", "battle_id", "format", "version", "file"}`` with ``file``
    relative to ``MEDIA_ROOT``. An unknown battle or format fails at once (no retry).
    """
    report = report_render(battle_id=battle_id, fmt=fmt)
    return {
        "report_id": report.pk,
        "battle_id": battle_id,
        "format": report.format,
        "version": report.version,
        "file": report.file.name,
    }


@shared_task(name="battles.play_due_turns", soft_time_limit=120, time_limit=180)
def play_due_turns() -> list[int]:
    """Play every turn-by-turn battle's turn whose orders deadline has passed
    (``battles.turns.play.turns_play_due``); schedule it every minute with Celery beat.
    Idempotent: a turn is played once (the battle row is locked while it is)."""
    from .turns.play import turns_play_due

    return turns_play_due()
