"""Phase-9 fire of the tactics (see ``battles.rules.ai``): focus fire on the most damaged enemy
ship in reach, lances alone under D-12, Sa'vasku power for the nodules, idle class-1 weapons
as PD at attached light units.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from battles.rules.ai.kit import (
    _WORKING,
    _needs_power,
    _pd_capable,
    _reach,
    ship_guns,
)
from battles.rules.sensors import ALL_ARC_BITS, ARC_BITS, arc_mask
from battles.rules.ships import ShipState
from battles.rules.turn import (
    BIOMASS_WEAPONS,
    SHOT_BIOMASS,
    SHOT_POWER_POINTS,
    BattleState,
    FireIntent,
    fire_controls,
)

_AFT = ARC_BITS["A"]


_LIGHT_UNITS_ONLY = frozenset({"interceptor-nodule", "spicule"})  # §8, §10: never a ship


def _allot_power(
    ship: ShipState, intents: list[FireIntent], chosen: Mapping[str, str | int]
) -> list[FireIntent]:
    """Sa'vasku power for ``intents`` at enemy ships (§8, §10, §14; see the module
    docstring): launcher nodules fire while the ship has 1 biomass and 3 PP left for each
    shot (interceptor nodules and spicules never fire at a ship); the PP left are split
    evenly over the needle nodules that fire, the remainder to the first in system order.
    With phase-1 settings (``chosen``, D-34) the needles' PP are already set: they are
    spent first, the launcher nodules share what is left."""
    systems = ship.systems
    if not any(
        systems[i.system].weapon in BIOMASS_WEAPONS or _needs_power(systems[i.system].weapon)
        for i in intents
    ):
        return intents
    power, biomass = ship.power_points, ship.biomass
    if chosen:
        power -= sum(v for v in chosen.values() if isinstance(v, int))
    kept: list[FireIntent] = []
    needles: list[int] = []
    for intent in intents:
        weapon = systems[intent.system].weapon
        if weapon in BIOMASS_WEAPONS:
            if weapon in _LIGHT_UNITS_ONLY:
                continue
            if biomass < SHOT_BIOMASS or power < SHOT_POWER_POINTS:
                continue
            biomass -= SHOT_BIOMASS
            power -= SHOT_POWER_POINTS
        elif _needs_power(weapon):
            needles.append(len(kept))
        kept.append(intent)
    if needles and not chosen:
        place = {sid: n for n, sid in enumerate(systems)}
        needles.sort(key=lambda k: place[kept[k].system])
        share, extra = divmod(power, len(needles))
        for n, k in enumerate(needles):
            kept[k] = FireIntent(
                kept[k].system, kept[k].target, power_points=share + (extra if n == 0 else 0)
            )
    return kept


def ship_fire(state: BattleState, ship: ShipState) -> list[FireIntent]:
    """Phase 9 fire for one ship: focus on the most damaged enemy ship it can reach. A
    pulser reaches as far as its phase-1 mode (D-34); with ``lance_exclusive`` (D-12) the
    ship fires its lances only when no other weapon reaches an enemy ship."""
    weapons = []  # (system, reach in mu, arcs as bits)
    rounds: dict[str, int] = {}  # magazine id -> rounds not yet promised this turn
    # Read off the guns in the same pass: whether D-12 (lances) or Sa'vasku power can
    # concern this ship at all, so the usual ship skips both steps below.
    has_lance = powered = False
    longest = 0  # mu: the farthest any of them reaches
    systems = ship.systems
    chosen = state.settings.get(ship.ship_id, {}) if state.options.settings_in_orders else {}
    for gun, profile in ship_guns(ship):
        if gun.status is not _WORKING or profile.light:
            continue  # a light-unit weapon: launched in phase 3, not fired here
        mu = profile.reach
        if profile.weapon == "pulser" and gun.id in chosen:
            mu = _reach(str(chosen[gun.id]))  # as far as its phase-1 mode reaches (D-34)
        if gun.magazine:
            magazine = systems.get(gun.magazine)
            if magazine is None or not magazine.working:
                continue
            left = rounds.setdefault(gun.magazine, magazine.ammo or 0)
            if left <= 0:
                continue
            rounds[gun.magazine] = left - 1
        elif gun.ammo is not None and gun.ammo <= 0:  # _has_round without a magazine
            continue
        weapons.append((gun, mu, profile.mask))
        if mu > longest:
            longest = mu
        if profile.lance:
            has_lance = True
        elif profile.powered:
            powered = True
    if not weapons:
        return []
    # §6: an FC tied by a launch in phase 3 is free again ("libérés après lancement").
    free = fire_controls(state, ship)
    if free <= 0:
        return _point_defence_fire(state, ship, [w for w, _, _ in weapons])
    longest2 = longest**2
    # Arcs matter only when some weapon does not cover all six, or aft is blind (§6).
    thrusting = ship.thrust_used
    all_round = not thrusting and all(m == ALL_ARC_BITS for _, _, m in weapons)
    x, y = ship.x, ship.y
    reach: dict[str, list[Any]] = {}
    rank: dict[str, tuple[float, int, float, str]] = {}
    sight = state.sight
    for enemy in state.in_action(state.enemy_of(ship.side)):
        ex, ey = enemy.x, enemy.y
        d2 = (ex - x) * (ex - x) + (ey - y) * (ey - y)
        if d2 > longest2:
            continue
        if all_round:
            gap = math.sqrt(d2)
            able = [w for w, r, _ in weapons if gap <= r]
        else:
            gap, seen_in = sight(ship, enemy.ship_id, (ex, ey))
            seen = arc_mask(seen_in)
            if thrusting:
                seen &= ~_AFT  # §6: FCs are blind aft while the ship uses thrust
                if not seen:
                    continue
            able = [w for w, r, m in weapons if gap <= r and m & seen]
        if able:
            sid = enemy.ship_id
            reach[sid] = able
            # Most damaged first, then reached by more weapons, then nearest.
            rank[sid] = (sum(enemy.hull_rows) / (enemy.hull_max or 1), -len(able), gap, sid)
    if not reach:
        return _point_defence_fire(state, ship, [w for w, _, _ in weapons])
    if (
        has_lance
        and state.options.lance_exclusive
        and any(w.weapon == "lance" for able in reach.values() for w in able)
    ):
        # D-12: lances fire alone; keep them only when nothing else reaches an enemy ship.
        others = {sid: [w for w in able if w.weapon != "lance"] for sid, able in reach.items()}
        if any(others.values()):
            reach = {sid: able for sid, able in others.items() if able}
    ranked = sorted(reach, key=rank.__getitem__) if len(reach) > 1 else list(reach)
    intents: list[FireIntent] = []
    used: set[str] = set()
    for sid in ranked:
        if free <= 0:
            break
        fresh = [w for w in reach[sid] if w.id not in used]
        lances = [w for w in fresh if w.weapon == "lance"]
        guns = [w for w in fresh if w.weapon != "lance"] if lances else fresh
        if guns:
            free -= 1
            for w in guns:
                intents.append(FireIntent(w.id, sid))
                used.add(w.id)
        for w in lances:
            if free <= 0:
                break
            free -= 1
            intents.append(FireIntent(w.id, sid))
            used.add(w.id)
    if powered:
        intents = _allot_power(ship, intents, chosen)
    if not state.light_units:
        return intents  # no squadron on the table: nothing for PD to shoot at
    return intents + _point_defence_fire(
        state, ship, [w for w, _, _ in weapons if w.id not in used]
    )


def _point_defence_fire(state: BattleState, ship: ShipState, idle: list[Any]) -> list[FireIntent]:
    """Idle class-1 weapons (beam-1, kgun-1, pulsers) fire as PD at the enemy light unit
    attached to the ship with most craft left (§6: no FC needed)."""
    if not state.light_units:
        return []
    boarders = [
        u
        for u in state.light_units.values()
        if u.active and u.side != ship.side and u.attached_to == ship.ship_id
    ]
    if not boarders:
        return []
    worst = max(boarders, key=lambda u: (u.craft, u.unit_id))
    return [FireIntent(w.id, worst.unit_id) for w in idle if _pd_capable(w.weapon)]
