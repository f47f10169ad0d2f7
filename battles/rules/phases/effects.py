"""Damage of phases 9–11 (rules §2: fire is simultaneous, so a phase's effects are applied
together at its end): craft lost by light units, lance and EMP system hits, hull damage
through ``battles.rules.damage``, vampires, core explosions (§4, D-7)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from battles.rules.damage import (
    CORE_EXPLOSION_RADIUS,
    DamageEvent,
    apply_hits,
    attach_vampire,
    core_explosion_hit,
    emp_hits,
    lance_hit,
)
from battles.rules.phases.state import BattleState, ship_pos
from battles.rules.sensors import distance
from battles.rules.ships import COMMAND_SYSTEMS, ShipState, Status


@dataclass
class Pending:
    """Effects of a phase, applied together at its end (§2: simultaneous fire)."""

    hits: dict[str, list[Any]] = field(default_factory=dict)  # ship id -> Hit list
    systems: dict[str, int] = field(default_factory=dict)  # ship id -> lance successes
    checks: dict[str, int] = field(default_factory=dict)  # ship id -> EMP system checks
    kills: dict[str, int] = field(default_factory=dict)  # unit id -> craft lost
    vampires: dict[str, int] = field(default_factory=dict)  # ship id -> vampires attached
    #: phase 9: ship id -> power points left after its ship fire (§14), for spicules and
    #: interceptor nodules defending it; (ship id, system id) of systems that fired
    power_left: dict[str, int] = field(default_factory=dict)
    fired: set[tuple[str, str]] = field(default_factory=set)

    def add_volley(self, target: str, volley: Any, *, is_unit: bool) -> None:
        if is_unit:
            lost = volley.kills or len(volley.hits)
            if lost:
                self.kills[target] = self.kills.get(target, 0) + lost
            return
        if volley.weapon == "vampire":
            if volley.hits:
                self.vampires[target] = self.vampires.get(target, 0) + len(volley.hits)
            return
        if volley.hits:
            self.hits.setdefault(target, []).extend(volley.hits)
        if volley.systems and volley.weapon == "lance":
            self.systems[target] = self.systems.get(target, 0) + volley.systems
        elif volley.systems:
            self.checks[target] = self.checks.get(target, 0) + volley.systems


def apply_pending(state: BattleState, pending: Pending, phase: int) -> None:
    """Apply a phase's effects: kills on light units, lance and EMP hits, then damage."""
    for unit_id, lost in pending.kills.items():
        unit = state.light_units[unit_id]
        unit.craft = max(0, unit.craft - lost)
        if unit.craft == 0:
            unit.destroyed = True
        state.log(
            phase,
            "light-unit-losses",
            f"{unit_id} loses {lost}, {unit.craft} left",
            unit=unit_id,
            lost=lost,
            craft=unit.craft,
        )
    for ship_id, count in pending.systems.items():
        _apply_lance(state, state.ships[ship_id], count, phase)
    for ship_id, count in pending.checks.items():
        _apply_system_checks(state, state.ships[ship_id], count, phase)
    for ship_id, hits in pending.hits.items():
        apply_ship_hits(state, state.ships[ship_id], hits, phase)
    for ship_id, count in pending.vampires.items():
        for _ in range(count):
            ship = state.ships[ship_id]
            log_damage(state, phase, attach_vampire(ship, state.dice, options=state.options))


# ---- damage: adapters onto battles.rules.damage ---------------------------------------


def _damage_text(name: str, kind: str, detail: str) -> str:
    return f"{name} {kind}: {detail}"


def log_damage(state: BattleState, phase: int, events: Iterable[DamageEvent]) -> None:
    recording = state.recording
    for event in events:
        if recording:
            state.record(
                phase,
                f"damage-{event.kind}",
                (_damage_text, state.ships[event.ship].name, event.kind, event.detail),
                {"ship": event.ship, "detail": event.detail, "amount": event.amount},
            )
        if event.kind == "core-explosion":
            _core_explosion(state, state.ships[event.ship], phase)


def apply_ship_hits(state: BattleState, ship: ShipState, hits: list[Any], phase: int) -> None:
    """§11 damage of a phase on one ship (threshold checks, destruction) via damage.py."""
    events = apply_hits(ship, hits, state.dice, options=state.options, source=f"phase {phase}")
    log_damage(state, phase, events)


def lance_choice(ship: ShipState) -> list[str]:
    """The attacker's picks for lance hits (§8), best first: working weapons, then fire
    controls, drive, screens and anything else; never a command system."""
    rank = {"weapon": 0, "fc": 1, "drive": 2, "screen": 3}
    candidates = [
        s
        for s in ship.systems.values()
        if s.kind not in COMMAND_SYSTEMS and s.status is not Status.DESTROYED
    ]
    candidates.sort(key=lambda s: (not s.working, rank.get(s.kind, 4)))
    return [s.id for s in candidates]


def _apply_lance(state: BattleState, ship: ShipState, count: int, phase: int) -> None:
    for system_id in lance_choice(ship)[:count]:
        log_damage(state, phase, lance_hit(ship, system_id))


def _apply_system_checks(state: BattleState, ship: ShipState, count: int, phase: int) -> None:
    log_damage(state, phase, emp_hits(ship, count, state.dice))


def _core_explosion(state: BattleState, ship: ShipState, phase: int) -> None:
    """§4 (D-7): a core explosion deals its mass, semi-piercing, to every ship within 6 mu
    and destroys the light units there."""
    hit = core_explosion_hit(ship)
    for other in state.ships.values():
        if other is ship or other.destroyed:
            continue
        if distance(ship_pos(other), ship_pos(ship)) <= CORE_EXPLOSION_RADIUS:
            apply_ship_hits(state, other, [hit], phase)
    for unit in state.light_units.values():
        if unit.active and distance(unit.position, ship_pos(ship)) <= CORE_EXPLOSION_RADIUS:
            unit.destroyed = True
            state.log(
                phase,
                "light-unit-losses",
                f"{unit.unit_id} caught in the explosion",
                unit=unit.unit_id,
                lost=unit.craft,
                craft=0,
            )
