"""The scoring's receivers, connected when this module is imported (``battles/apps.py``):
a new campaign gets its scoring rules with the defaults; a battle concluded or recorded
writes its awards, a battle reopened deletes them; a turn closed writes its holding awards
and fleet strengths, a turn reopened deletes them. Each runs inside the sender's
transaction: if it fails, nothing of the sender is written.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from battles.models import Battle, ScoringRules
from battles.scoring.awards import (
    battle_awards_remove,
    battle_awards_write,
    turn_awards_remove,
    turn_awards_write,
)
from battles.scoring.strength import strength_remove, strength_write
from battles.signals import battle_concluded, battle_reopened, battle_results_recorded
from campaign.core.signals import turn_closed, turn_reopened
from campaign.league.models import Campaign


@receiver(post_save, sender=Campaign, dispatch_uid="scoring-new-campaign")
def on_campaign_saved(sender: Any, instance: Campaign, created: bool, **kwargs: Any) -> None:
    if created and not kwargs.get("raw"):
        ScoringRules.objects.get_or_create(campaign=instance)


@receiver(battle_concluded, dispatch_uid="scoring-concluded")
@receiver(battle_results_recorded, dispatch_uid="scoring-recorded")
def on_battle_concluded(sender: Any, battle: Battle, **kwargs: Any) -> None:
    battle_awards_write(battle)


@receiver(battle_reopened, dispatch_uid="scoring-battle-reopened")
def on_battle_reopened(sender: Any, battle: Battle, **kwargs: Any) -> None:
    battle_awards_remove(battle)


@receiver(turn_closed, dispatch_uid="scoring-turn-closed")
def on_turn_closed(sender: Any, campaign: Campaign, turn: int, **kwargs: Any) -> None:
    turn_awards_write(campaign, turn)
    strength_write(campaign, turn)


@receiver(turn_reopened, dispatch_uid="scoring-turn-reopened")
def on_turn_reopened(sender: Any, campaign: Campaign, turn: int, **kwargs: Any) -> None:
    turn_awards_remove(campaign, turn)
    strength_remove(campaign, turn)
