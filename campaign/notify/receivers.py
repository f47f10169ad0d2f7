"""The lower layers' events, turned into notifications (connected in
``NotifyConfig.ready``). Each receiver runs inside the event's transaction: the deliveries
are written with it and sent once it commits (``campaign.notify.events``).

A notification must never undo the event it tells of: a receiver's own failure is rolled
back to a savepoint and logged with its traceback, and the event stands.

- ``campaign.turns.signals.turn_opened``: turn opened, every member;
- ``battles.signals.battle_turn_opened``: orders due, the sides' players;
- ``battles.signals.battle_turn_played``: turn played, the sides' players;
- ``battles.signals.record_entry_submitted``: entry awaiting, the other sides' players (an
  organiser's entry for every side: the other organisers);
- ``battles.signals.battle_concluded``, ``battle_results_recorded``: battle concluded, the
  sides' players;
- ``battles.signals.report_published``: report published, every member.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db import transaction
from django.dispatch import receiver
from django.urls import reverse

from battles.models import Battle, BattleSide
from battles.signals import (
    battle_concluded,
    battle_results_recorded,
    battle_turn_opened,
    battle_turn_played,
    record_entry_submitted,
    report_published,
)
from campaign.league.models import Membership
from campaign.notify.events import campaign_members, faction_players, notify_event
from campaign.notify.models import Kind
from campaign.notify.texts import absolute, deadline_text
from campaign.turns.signals import turn_opened

logger = logging.getLogger(__name__)


def _safely(handler: Callable[..., None]) -> Callable[..., None]:
    @wraps(handler)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            with transaction.atomic():
                handler(*args, **kwargs)
        except Exception:  # logged with its traceback; the event itself stands
            logger.exception("notifications for %s could not be written", handler.__name__)

    return run


def _side_players(battle: Battle, *, exclude_side: int | None = None) -> list[Any]:
    sides = BattleSide.objects.filter(battle=battle)
    if exclude_side is not None:
        sides = sides.exclude(pk=exclude_side)
    return faction_players(battle.campaign, sides.values_list("faction_id", flat=True))


@receiver(turn_opened, dispatch_uid="notify-turn-opened")
@_safely
def on_turn_opened(sender: Any, *, campaign: Any, turn: Any, **kwargs: Any) -> None:
    """A campaign turn opened: every member."""
    notify_event(
        kind=Kind.TURN_OPENED,
        campaign=campaign,
        users=campaign_members(campaign),
        link=absolute(reverse("turn-page", kwargs={"slug": campaign.slug})),
        params={"n": turn.number, "deadline": deadline_text(turn.deadline, campaign.time_zone)},
    )


@receiver(battle_turn_opened, dispatch_uid="notify-battle-turn-opened")
@_safely
def on_battle_turn_opened(
    sender: Any, *, battle: Battle, turn: int, deadline: Any = None, **kwargs: Any
) -> None:
    """A battle turn waits for orders: the sides' players."""
    notify_event(
        kind=Kind.ORDERS_DUE,
        campaign=battle.campaign,
        users=_side_players(battle),
        link=absolute(reverse("battle-turns", kwargs={"pk": battle.pk})),
        params={
            "battle": battle.name,
            "n": turn,
            "deadline": deadline_text(deadline, battle.campaign.time_zone),
        },
    )


@receiver(battle_turn_played, dispatch_uid="notify-battle-turn-played")
@_safely
def on_battle_turn_played(sender: Any, *, battle: Battle, turn: int, **kwargs: Any) -> None:
    """A battle turn was played: the sides' players."""
    notify_event(
        kind=Kind.TURN_PLAYED,
        campaign=battle.campaign,
        users=_side_players(battle),
        link=absolute(reverse("battle-turns", kwargs={"pk": battle.pk})),
        params={"battle": battle.name, "n": turn},
    )


@receiver(record_entry_submitted, dispatch_uid="notify-record-entry")
@_safely
def on_record_entry(sender: Any, *, entry: Any, **kwargs: Any) -> None:
    """A record entry awaits confirmation: those who may confirm it (a side's entry: the
    other sides' players; the organisers' entry for every side: the other organisers)."""
    battle = entry.battle
    if entry.side_id is None:
        users = campaign_members(battle.campaign, roles=[Membership.Role.ORGANISER])
        side = entry.submitted_by.get_username() if entry.submitted_by_id else battle.campaign.name
    else:
        users = _side_players(battle, exclude_side=entry.side_id)
        side = entry.side.faction.name
    notify_event(
        kind=Kind.ENTRY_AWAITING,
        campaign=battle.campaign,
        users=[u for u in users if u.pk != entry.submitted_by_id],
        link=absolute(reverse("battle-record", kwargs={"pk": battle.pk})),
        params={"battle": battle.name, "side": side},
    )


@receiver(battle_concluded, dispatch_uid="notify-battle-concluded")
@receiver(battle_results_recorded, dispatch_uid="notify-battle-recorded")
@_safely
def on_battle_concluded(sender: Any, *, battle: Battle, **kwargs: Any) -> None:
    """A battle concluded (by the engine, a record, the end of its turn-by-turn play): the
    sides' players; the campaign's webhook, if asked (a concluded battle is public)."""
    notify_event(
        kind=Kind.BATTLE_CONCLUDED,
        campaign=battle.campaign,
        users=_side_players(battle),
        link=absolute(battle.get_absolute_url()),
        params={"battle": battle.name},
    )


@receiver(report_published, dispatch_uid="notify-report-published")
@_safely
def on_report_published(sender: Any, *, battle: Battle, **kwargs: Any) -> None:
    """A battle's report was published: every member."""
    notify_event(
        kind=Kind.REPORT_PUBLISHED,
        campaign=battle.campaign,
        users=campaign_members(battle.campaign),
        link=absolute(battle.get_absolute_url()),
        params={"battle": battle.name},
    )
