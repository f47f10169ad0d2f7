"""What the after-action reports do when the battle services signal
(``battles.signals``); connected in ``BattlesConfig.ready``.

- a battle concluded: its drafted report is written for the chroniclers
  (``battles.reports.desk.report_draft_write``) and its report files are queued
  (``battles.reports.queue.report_request``, rendered once the transaction commits);
- another game system's results recorded: its report files are queued.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from battles.models import Battle
from battles.reports.desk import report_draft_write
from battles.reports.queue import report_request
from battles.signals import battle_concluded, battle_results_recorded


@receiver(battle_concluded, dispatch_uid="reports-on-concluded")
def draft_and_render(sender: Any, *, battle: Battle, **kwargs: Any) -> None:
    """Write ``battle``'s drafted report and queue its files."""
    report_draft_write(battle=battle)
    report_request(battle=battle)


@receiver(battle_results_recorded, dispatch_uid="reports-on-results-recorded")
def render(sender: Any, *, battle: Battle, **kwargs: Any) -> None:
    """Queue ``battle``'s report files."""
    report_request(battle=battle)
