"""The state of a turn-by-turn battle: replayed from its set-up and the stored orders of
every turn (:func:`rebuild`), or resumed from the engine state stored after the last turn
(:func:`resume`, ``battles.play.engine_state``). The two give the same battle (tested);
the services of ``battles.play.game_turns`` play each next turn from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from battles.models.turn_orders import TurnOrders, TurnPlay
from battles.play import engine_io, engine_state
from battles.play.orders import ship_orders_from_json
from battles.rules import ai
from battles.rules.dice import Dice
from battles.rules.errors import RulesError
from battles.rules.options import RuleOptions
from battles.rules.turn import BattleState, ShipOrders, play_turn
from battles.rules.turn import Event as EngineEvent
from battles.services import BattleActionError

__all__ = [
    "TurnRecord",
    "play_one",
    "positions",
    "rebuild",
    "replayed",
    "resume",
    "stored_records",
    "turn_state",
]


#: Per turn, each side's stored orders (``None``: that side took the auto-resolve tactics).
TurnRecord = Mapping[str, Mapping[str, Any] | None]


def rebuild(setup: Mapping[str, Any], turns: Sequence[TurnRecord]) -> BattleState:
    """The battle after ``turns``, replayed from ``setup`` (the ``setup`` row's data) and
    each turn's orders by side (faction slug). Raises ``RulesError`` if a stored order no
    longer passes phase 1 (the engine changed) and ``KeyError``/``TypeError`` for a
    malformed set-up."""
    fleets = [
        [engine_io.replay_ship(sid, setup["ships"][sid]) for sid in fleet]
        for fleet in setup["fleets"]
    ]
    engine_io.deploy(fleets, setup)
    sides = tuple(setup["sides"])
    state = BattleState(
        ships={s.ship_id: s for fleet in fleets for s in fleet},
        sides=(sides[0], sides[1]),
        dice=Dice(setup["seed"]),
        options=RuleOptions.from_dict(setup["options"]),
        known_classes={k: set(v) for k, v in setup.get("known_classes", {}).items()},
    )
    state.log(0, "deploy", "fleets deployed", positions=positions(state))
    for record in turns:
        play_one(state, record)
    return state


def positions(state: BattleState) -> dict[str, list[float]]:
    return {
        sid: [round(s.x, 3), round(s.y, 3), s.heading, s.speed] for sid, s in state.ships.items()
    }


def play_one(state: BattleState, record: TurnRecord) -> list[EngineEvent]:
    """Play the next turn from each side's orders; a side given ``None`` takes the
    auto-resolve tactics, logged first as an ``auto-orders`` event (phase 1)."""
    auto = {side for side in state.sides if record.get(side) is None}
    for side in sorted(auto, key=state.sides.index):
        state.events.append(
            EngineEvent(
                state.turn + 1,
                1,
                "auto-orders",
                f"{side} gave no orders in time: its ships take the auto-resolve tactics",
                {"side": side},
            )
        )
        state.roll_marks.append(len(state.dice.log))
    orders: dict[str, ShipOrders] = {}
    state.hold_roster(True)
    for ship in state.in_action():
        given = record.get(ship.side)
        if given is None:
            orders[ship.ship_id] = ai.ship_orders(state, ship)
        elif ship.ship_id in given:
            orders[ship.ship_id] = ship_orders_from_json(ship.name, given[ship.ship_id])
    state.hold_roster(False)

    def fire(st: BattleState, ship: Any) -> Sequence[Any]:
        if ship.side in auto:
            return ai.ship_fire(st, ship)
        own = orders.get(ship.ship_id)
        return own.fire if own else []

    return play_turn(state, orders, ship_fire=fire, crew_plan=ai.crew_plan)


def stored_records(play: TurnPlay) -> list[dict[str, Any]]:
    """The orders of every turn played, by side slug, in turn order."""
    records: dict[int, dict[str, Any]] = {}
    rows = TurnOrders.objects.filter(battle_id=play.battle_id, game_turn__lte=play.turns_played)
    for row in rows.select_related("side__faction"):
        records.setdefault(row.game_turn, {})[row.side.faction.slug] = (
            None if row.auto else row.orders
        )
    return [records.get(t, {}) for t in range(1, play.turns_played + 1)]


def replayed(play: TurnPlay) -> BattleState:
    """The battle after the turns played, replayed from the set-up."""
    try:
        return rebuild(play.setup["data"], stored_records(play))
    except (KeyError, TypeError, ValueError, RulesError) as exc:
        raise BattleActionError(
            _("battle %(battle)s: stored set-up or orders cannot be replayed (%(error)s)")
            % {"battle": play.battle_id, "error": f"{type(exc).__name__}: {exc}"}
        ) from exc


def resume(play: TurnPlay) -> tuple[BattleState, int, bool]:
    """``(state, dice_base, replayed)``: the battle after the turns played, from the
    stored engine state (its log empty; ``dice_base``: the dice the stored log holds
    before its dice), or replayed from the set-up (``replayed``; its log whole, base 0)
    for a play started before states were stored."""
    if not play.state:
        return replayed(play), 0, True
    try:
        state, base = engine_state.load(play.state)
    except (KeyError, TypeError, ValueError) as exc:
        raise BattleActionError(
            _("battle %(battle)s: the stored engine state cannot be read (%(error)s)")
            % {"battle": play.battle_id, "error": f"{type(exc).__name__}: {exc}"}
        ) from exc
    return state, base, False


def turn_state(*, play: TurnPlay) -> BattleState:
    """The battle as it stands after the turns played (read only): the stored engine
    state. ``BattleActionError`` when it cannot be read."""
    return resume(play)[0]
