"""Phase 7 of rules §2: which enemy ships each side holds on sensors (§5), and how well."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from battles.rules.phases.state import BattleState
from battles.rules.sensors import Contact, observe, sensor_range


def phase_sensors(state: BattleState, seen: dict[str, dict[str, str]]) -> None:
    """Phase 7: which enemy ships each side holds on sensors (§5), and how well.

    Logs only changes: a ``contact`` event (data: the ``sensors.observe`` report, the class
    shown only when in ``state.known_classes`` of that side) when a ship is first seen or
    seen better, ``contact-lost`` when it drops back to a blip.

    Contacts decide nothing later in the turn (fire at a blip reads sensor ranges itself,
    D-32), so the phase only feeds the log and ``seen``: an unrecorded battle (a forecast,
    ``UnrecordedBattleState``) skips it and keeps no contacts.
    """
    if not state.recording:
        return
    reach: dict[tuple[str, int], float] = {}
    for side in state.sides:
        now: dict[str, str] = {}
        observers = [(s.x, s.y, s.sensors) for s in state.in_action(side)]
        advanced = any(kind == "advanced" for _, _, kind in observers)
        # Squared sensor reach of each observer against a target of a given ECM level.
        reach_by_ecm: dict[int, list[float]] = {}
        before = seen.get(side, {})
        for enemy in state.in_action(state.enemy_of(side)):
            ecm = enemy.ecm
            reaches = reach_by_ecm.get(ecm)
            if reaches is None:
                reaches = reach_by_ecm[ecm] = []
                for _, _, kind in observers:
                    key = (kind, ecm)
                    if key not in reach:
                        reach[key] = float(sensor_range(kind, target_ecm=ecm)) ** 2
                    reaches.append(reach[key])
            best: tuple[float, str] | None = None
            ex, ey = enemy.x, enemy.y
            for (x, y, kind), r2 in zip(observers, reaches, strict=True):
                dx, dy = ex - x, ey - y
                d2 = dx * dx + dy * dy
                if d2 <= r2 and (best is None or kind == "advanced"):
                    best = (math.sqrt(d2), kind)
                    if kind == "advanced" or not advanced:
                        break  # nothing better can follow
            if best is None:
                continue
            now[enemy.ship_id] = best[1]
            if before.get(enemy.ship_id) in (best[1], "advanced"):
                continue  # nothing new
            # The report is written when the event is read (Event.data), from the ship
            # as it is now (Contact.from_ship).
            report = (Contact.from_ship(enemy), best[0], best[1], state.known_classes.get(side))
            state.record(
                7,
                "contact",
                (_contact_text, side, enemy.name, best[1]),
                (_contact_data, side, enemy.ship_id, *report),
            )
        for ship_id in sorted(set(before) - set(now)):
            state.log(
                7,
                "contact-lost",
                f"{side} loses {state.ships[ship_id].name}",
                side=side,
                ship=ship_id,
            )
        seen[side] = now


def _contact_text(side: str, name: str, sensors: str) -> str:
    return f"{side} has {name} on {sensors} sensors"


def _contact_data(
    side: str,
    ship_id: str,
    contact: Contact,
    range_mu: float,
    sensors: str,
    known_classes: Iterable[str] | None,
) -> dict[str, Any]:
    """A ``contact`` event's data: the ``sensors.observe`` report of ``contact``."""
    report = observe(
        contact, range_mu=range_mu, sensors=sensors, encountered_classes=known_classes or ()
    )
    return {"side": side, "ship": ship_id, "report": report}
