"""Turn-by-turn battles and the replay board in the API,
mounted at ``/api/``: the same services and scoping as the pages (``battles/web/play.py``).

- ``GET  /battles/{id}/turns``: the turn being ordered, whether each side's orders are in
  (never what they are), the caller's own side's orders;
- ``POST /battles/{id}/turns/start`` (organisers): seed, turn cap, deadline, hours a turn;
- ``PUT  /battles/{id}/turns/orders`` (a player of a side): that side's orders for the
  current turn (shape: ``battles/play/orders.py``); the turn is played once both are in;
- ``POST /battles/{id}/turns/play`` (organisers: now, auto tactics for a side without
  orders), ``/deadline``, ``/end``;
- ``GET  /battles/{id}/board``: moments, frames, fire lines and log as the caller may see
  them (``battles/play/board.py``).

401 without a session (and CSRF token) for the writes, 403 for a user who may see the
battle but not act, 404 for a battle the user may not see (another campaign's draft),
400 with the message (naming the ship and field) for refused orders or actions.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema

from battles.access import actionable_battles, battle_side_slug
from battles.models import Battle, BattleSide
from battles.models.turn_orders import TurnOrders, TurnPlay
from battles.play.contacts import submit_side_orders
from battles.play.context import battle_viewer, board_for, contact_keys
from battles.play.game_turns import (
    turn_deadline_set,
    turn_play_advance,
    turn_play_end,
    turn_play_start,
)
from battles.services import MAX_TURNS_LIMIT
from campaign.core.api_errors import ErrorOut
from campaign.core.refusals import Refused
from campaign.league.api_auth import api_auth
from campaign.league.roles import require_member, require_organiser

router = Router(tags=["turn-by-turn"])


class SideStatusOut(Schema):
    side: str
    orders_in: bool


class TurnStatusOut(Schema):
    """``turn``: the game turn being ordered; ``own_orders``: the caller's side's orders
    for it (None for organisers and non-players, or when not yet given)."""

    battle: int
    status: str
    turn: int
    turns_played: int
    max_turns: int
    deadline: datetime | None
    turn_interval_hours: float | None = None
    ended: bool
    sides: list[SideStatusOut]
    your_side: str | None
    own_orders: dict[str, Any] | None


class StartIn(Schema):
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    max_turns: int = Field(default=20, ge=1, le=MAX_TURNS_LIMIT)
    deadline: datetime | None = None
    #: Hours each turn is given: each turn played sets the next deadline this long after.
    turn_interval_hours: float | None = Field(default=None, gt=0, le=24 * 30)


class OrdersIn(Schema):
    """Engine ship id (``ship-<id>``) -> ``{"movement": "+3, 1B", "fire": [{"system",
    "target", "mode", "power_points"}], "launches": [[system, target]], "screens",
    "veil", "withdraw", "recover"}``."""

    orders: dict[str, Any]


class DeadlineIn(Schema):
    deadline: datetime | None = None


def _battle(request: HttpRequest, battle_id: int) -> Battle:
    return get_object_or_404(
        actionable_battles(request.user).select_related("campaign"), pk=battle_id
    )


def _status(request: HttpRequest, battle: Battle) -> dict[str, Any]:
    play = get_object_or_404(TurnPlay, battle=battle)
    battle.refresh_from_db(fields=["status"])
    slug = battle_side_slug(request.user, battle)
    given = {
        o.side_id: o for o in TurnOrders.objects.filter(battle=battle, game_turn=play.current_turn)
    }
    sides = list(BattleSide.objects.filter(battle=battle).select_related("faction"))
    own = next((s for s in sides if s.faction.slug == slug), None)
    keys = contact_keys(battle, battle_viewer(battle, request.user), play.setup["data"])
    return {
        "battle": battle.pk,
        "status": battle.status,
        "turn": play.current_turn,
        "turns_played": play.turns_played,
        "max_turns": play.max_turns,
        "deadline": play.deadline,
        "turn_interval_hours": play.turn_interval_hours,
        "ended": play.ended,
        "sides": [{"side": s.faction.slug, "orders_in": s.pk in given} for s in sides],
        "your_side": slug,
        "own_orders": keys.orders_out(given[own.pk].orders) if own and own.pk in given else None,
    }


def _organiser(request: HttpRequest, battle_id: int, refusal: str) -> Battle:
    """The battle an organiser acts on; :class:`Refused` with ``refusal`` (a translated
    message) for the campaign's other members, not found for anyone else."""
    battle = _battle(request, battle_id)
    require_organiser(request.user, battle.campaign, refusal)
    return battle


_RESPONSES = {200: TurnStatusOut, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut}


@router.get("/battles/{battle_id}/turns", response=_RESPONSES)
def turn_status(request: HttpRequest, battle_id: int):
    """The turn being ordered and whose orders are in (never what the other side ordered)."""
    return _status(request, _battle(request, battle_id))


@router.post("/battles/{battle_id}/turns/start", response=_RESPONSES, auth=api_auth)
def turn_start(request: HttpRequest, battle_id: int, payload: StartIn):
    """Start fighting a draft battle turn by turn (organisers)."""
    battle = _organiser(
        request, battle_id, _("only organisers of this campaign may start turn-by-turn play")
    )
    turn_play_start(
        battle=battle,
        user=request.user,
        seed=payload.seed,
        max_turns=payload.max_turns,
        deadline=payload.deadline,
        turn_interval=(
            timedelta(hours=payload.turn_interval_hours)
            if payload.turn_interval_hours is not None
            else None
        ),
    )
    return _status(request, battle)


@router.put("/battles/{battle_id}/turns/orders", response=_RESPONSES, auth=api_auth)
def turn_orders(request: HttpRequest, battle_id: int, payload: OrdersIn):
    """Your side's orders for the current turn (players of a side); replaces earlier ones.
    The turn is played as soon as both sides' orders are in."""
    battle = _battle(request, battle_id)
    require_member(request.user, battle.campaign)
    slug = battle_side_slug(request.user, battle)
    if slug is None:
        raise Refused(_("only a player of a side of this battle may give orders"))
    side = BattleSide.objects.select_related("faction").get(battle=battle, faction__slug=slug)
    play = get_object_or_404(TurnPlay, battle=battle)
    keys = contact_keys(battle, battle_viewer(battle, request.user), play.setup["data"])
    submit_side_orders(
        battle=battle, side=side, orders=payload.orders, keys=keys, user=request.user
    )
    return _status(request, battle)


@router.post("/battles/{battle_id}/turns/play", response=_RESPONSES, auth=api_auth)
def turn_play(request: HttpRequest, battle_id: int):
    """Play the current turn now; a side without orders takes the auto-resolve tactics."""
    battle = _organiser(request, battle_id, _("only organisers of this campaign may play a turn"))
    turn_play_advance(battle=battle, force=True, user=request.user)
    return _status(request, battle)


@router.post("/battles/{battle_id}/turns/deadline", response=_RESPONSES, auth=api_auth)
def turn_deadline(request: HttpRequest, battle_id: int, payload: DeadlineIn):
    """Set (or clear, null) the deadline of the turn being ordered; not in the past."""
    battle = _organiser(
        request, battle_id, _("only organisers of this campaign may set a deadline")
    )
    turn_deadline_set(battle=battle, user=request.user, deadline=payload.deadline)
    return _status(request, battle)


@router.post("/battles/{battle_id}/turns/end", response=_RESPONSES, auth=api_auth)
def turn_end(request: HttpRequest, battle_id: int):
    """End the battle now (judged on surviving strength) and conclude it."""
    battle = _organiser(request, battle_id, _("only organisers of this campaign may end a battle"))
    turn_play_end(battle=battle, user=request.user)
    return _status(request, battle)


@router.get("/battles/{battle_id}/board", response={200: dict[str, Any], 404: ErrorOut})
def battle_board(request: HttpRequest, battle_id: int):
    """The board and log per turn and phase as the caller may see them (organisers: all;
    a player: their side's sensors; others: the public battle without hidden fleets)."""
    battle = _battle(request, battle_id)
    return board_for(battle, battle_viewer(battle, request.user))
