"""The one place turn-by-turn play reaches into the battle services: reading the battle's
rows into engine ships, the set-up and log rows, and concluding. Everything here wraps
today's ``battles/resolution.py`` (which the ``battle-core`` branch splits into the
``battles.services`` package); at merge each wrapper points at its new home:

=====================  ==================================================================
here                   battles.services (battle-core)
=====================  ==================================================================
``locked``             ``common.locked``
``battle_sides``       ``common.battle_sides``
``field``              ``fielding.field_battle``
``options``            ``fielding.rule_options``
``setup_row``          ``resolve.setup_row``
``log_rows``           ``resolve.numbered([setup, *resolve.engine_rows(result)])``
``replay_ship``        ``resolve._replay_ship``
``deploy``             ``fielding.deploy(a, b, set(setup.get("fixed", ())))``
``conclude``           ``battle_conclude(battle=…, conclusion=lambda b, sides:
                       conclusion_from_engine(fleets=field_battle(b, sides),
                       final=state.ships, rows=rows, winner=…, outcome=…,
                       game_turns=…, seed=…))`` — it writes the log rows itself
=====================  ==================================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from battles.models import Battle, BattleSide, Event, Participant
from battles.resolution import (
    _apply_engine_state,
    _apply_squadron_losses,
    _conclude,
    _craft_left,
    _field,
    _locked,
    _numbered,
    _options,
    _outcome_text,
    _replay_ship,
    _rows,
    _setup_row,
    _sides,
)
from battles.rules import ai
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState
from battles.rules.turn import BattleState
from factions.models import LightUnitGroup, Ship

__all__ = [
    "battle_sides",
    "conclude",
    "deploy",
    "field",
    "locked",
    "log_rows",
    "options",
    "replay_ship",
    "setup_row",
]

_BULK = 500


def locked(battle: Battle) -> Battle:
    """The battle row locked for the transaction; ``BattleActionError`` when concluded."""
    return _locked(battle)


def battle_sides(battle: Battle) -> list[BattleSide]:
    """The sides in order with their participants (ships and classes loaded)."""
    return _sides(battle)


def field(battle: Battle, sides: list[BattleSide]) -> list[list[Any]]:
    """Engine ships per side from the rows (``BattleActionError`` naming the ship)."""
    return _field(battle, sides)


def options(battle: Battle) -> RuleOptions:
    """The campaign's rule options (§16)."""
    return _options(battle)


def setup_row(fleets: list[list[Any]], **kwargs: Any) -> dict[str, Any]:
    """The ``setup`` log row (seed, max_turns, options, known_classes as keywords)."""
    return _setup_row(fleets, **kwargs)


def replay_ship(ship_id: str, spec: Mapping[str, Any]) -> ShipState:
    """A ship as the set-up row stored it."""
    return _replay_ship(ship_id, spec)


def deploy(fleets: Sequence[Sequence[ShipState]], setup: Mapping[str, Any]) -> None:
    """Place both fleets as the auto-resolve does (§1)."""
    ai.deploy(fleets[0], y=0.0, heading=0)
    ai.deploy(fleets[1], y=ai.DEPLOY_GAP, heading=3)


def log_rows(setup: Mapping[str, Any], state: BattleState) -> list[dict[str, Any]]:
    """The battle's whole log as numbered rows: the set-up row, then every engine event
    with each die just before the event it decides (as the auto-resolve stores it)."""
    result = ai.BattleResult(
        None,
        "",
        state.turn,
        setup["data"]["seed"],
        state.events,
        state.ships,
        rolls=state.dice.log,
        roll_marks=state.roll_marks,
    )
    return _numbered([dict(setup), *_rows(result)])


def write_log(battle: Battle, rows: list[dict[str, Any]]) -> None:
    """Replace the battle's ``Event`` rows by ``rows``."""
    Event.objects.filter(battle=battle).delete()
    Event.objects.bulk_create((Event(battle=battle, **row) for row in rows), batch_size=_BULK)


def conclude(
    battle: Battle,
    sides: list[BattleSide],
    state: BattleState,
    *,
    winner: str | None,
    reason: str,
    seed: int,
    rows: list[dict[str, Any]],
) -> None:
    """Conclude ``battle`` from the engine's final ``state`` in the caller's transaction:
    every ship's new damage and status, the squadrons' craft lost, the log ``rows``, the
    result (winner, outcome, turns), the classes met and the report queued — the writes of
    ``resolution.battle_resolve``. ``reason``: ``destruction`` / ``withdrawal`` /
    ``mutual`` / ``turn-limit``."""
    write_log(battle, rows)
    fielded = [f for fleet in field(battle, sides) for f in fleet]
    destroyed = {sid for sid, s in state.ships.items() if s.destroyed}
    craft_left = _craft_left(rows, destroyed)
    squadrons: list[Participant] = []
    for f in fielded:
        final = state.ships[f.start.ship_id]
        _apply_engine_state(f, final)
        squadrons += _apply_squadron_losses(f, final, craft_left)
    Participant.objects.bulk_update(
        [f.participant for f in fielded],
        ["fate", "hull_lost", "armour_lost", "crew_lost", "systems_lost", "notes"],
    )
    Participant.objects.bulk_update(squadrons, ["fate", "craft_lost"])
    LightUnitGroup.objects.bulk_update([p.light_units for p in squadrons], ["strength"])
    Ship.objects.bulk_update(
        [f.ship for f in fielded],
        ["hull_lost", "armour_lost", "crew_lost", "systems_lost", "status"],
    )
    by_slug = {s.faction.slug: s for s in sides}
    names = {slug: s.faction.name for slug, s in by_slug.items()}
    result = ai.BattleResult(winner, reason, state.turn, seed, [], {})
    battle.refresh_from_db(fields=["seed", "mode", "version", "status"])
    _conclude(
        battle,
        sides,
        mode=Battle.Mode.RESOLVED,
        winner=by_slug.get(winner) if winner else None,
        outcome=_outcome_text(result, names, seed).replace(
            "Resolved by the rules engine", "Played turn by turn from both sides' orders"
        ),
        game_turns=state.turn,
        seed=seed,
    )
