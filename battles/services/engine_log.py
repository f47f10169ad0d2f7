"""The auto-resolve's log: engine events and dice as ``Event`` row dicts, the ``setup``
row a battle can be fought again from, and the fight itself with fixed platforms held in
place (``fielding.deploy``). Used by ``resolve`` (preview, conclude, replay)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from battles.rules import ai
from battles.rules.log_rows import log_rows
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState
from battles.services.fielding import Fielded, deploy


def engine_rows(result: ai.BattleResult) -> list[dict[str, Any]]:
    """Engine events and dice as row dicts (no ``sequence``), each roll just before the
    first event logged after it (as ``BattleResult.interleaved``), with that event's turn
    and phase (dice after the last event take its turn and phase). A ``roll`` row's
    ``data`` is ``{"n" (1-based), "purpose", "sides", "result"}`` and its summary the
    ``Roll.notation``. Events' ``data`` are the events' own dicts (not copied): they
    hold only JSON types (``phases.event.Event``; tested for the bench battles and the
    sample's), so they equal what the database gives back.

    Built by the engine (``battles.rules.log_rows``, compiled with it) from the dice as
    kept (``Dice.written``: no ``Roll`` made) and each event's summary and data written
    once: storing a battle reads every die and event. A JSON round trip of the events'
    data (to compare equal to the database's) cost 8.1 M of the 17.2 M instructions
    storing added to the Skirmish at Mieska's 13.3 M fight (callgrind,
    ``python -m bench.instructions``); the engine's data needs none."""
    dice = result.dice.written() if result.dice is not None else []
    return log_rows(result.events, result.roll_marks, dice)


def setup_row(
    fleets: list[list[Fielded]],
    *,
    seed: int,
    max_turns: int,
    options: RuleOptions,
    known_classes: Mapping[str, list[str]],
) -> dict[str, Any]:
    """The first log row: everything needed to fight the battle again (:func:`battle_replay`)."""
    ships = {}
    for fleet in fleets:
        for f in fleet:
            ships[f.start.ship_id] = {
                "participant": f.participant.pk,
                "ship": f.ship.pk if f.ship else None,
                "name": f.start.name,
                "side": f.start.side,
                "class": f.ship.ship_class.name if f.ship else f.participant.light_units.name,
                "design": f.ship.ship_class.design if f.ship else f.start_design,
                "hull_lost": f.start.hull_lost,
                "armour_lost": f.start.armour_lost,
                "crew_lost": f.start.crew_lost,
                "systems_lost": list(f.ship.systems_lost or []) if f.ship else [],
                # Bay id -> craft aboard and the light-unit participant flying them.
                "squadrons": {
                    bay: {"craft": p.light_units.strength, "participant": p.pk}
                    for bay, p in f.squadrons.items()
                },
            }
    sides = [fleet[0].start.side for fleet in fleets]
    data = {
        "seed": seed,
        "max_turns": max_turns,
        "options": options.to_dict(),
        "known_classes": dict(known_classes),
        "sides": sides,
        "fleets": [[f.start.ship_id for f in fleet] for fleet in fleets],
        "ships": ships,
    }
    fixed = sorted(f.start.ship_id for fleet in fleets for f in fleet if f.platform)
    if fixed:
        data["fixed"] = fixed
    changed = options.non_default()
    return {
        "game_turn": 0,
        "phase": 0,
        "kind": "setup",
        # No ship count: a report may hide units of fleets its reader may not see.
        "summary": (
            f"{sides[0]} against {sides[1]}; seed {seed}, at most {max_turns} turns"
            + (f"; rule options {changed}" if changed else "")
        ),
        "data": json.loads(json.dumps(data)),
    }


def numbered(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows with ``sequence`` 1, 2, …"""
    return [{"sequence": i, **row} for i, row in enumerate(rows, 1)]


def fight(
    fleets: Sequence[Sequence[ShipState]],
    *,
    fixed: set[str],
    seed: int,
    max_turns: int,
    options: RuleOptions,
    known_classes: Mapping[str, Any],
) -> ai.BattleResult:
    """``ai.resolve_battle`` with fixed platforms held at speed 0 (``fielding.deploy``)."""
    a = [ai.clone(s) for s in fleets[0]]
    b = [ai.clone(s) for s in fleets[1]]
    deploy(a, b, fixed)
    return ai.resolve_battle(
        a,
        b,
        seed=seed,
        max_turns=max_turns,
        options=options,
        known_classes=known_classes,
        deployed=True,
    )
