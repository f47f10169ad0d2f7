"""Phase 10 of rules §2: light-unit fire in four sub-phases, effects applied after each."""

from __future__ import annotations

from collections.abc import Sequence

from battles.rules.damage import board
from battles.rules.options import RuleOptions
from battles.rules.phases.effects import Pending, apply_pending, log_damage
from battles.rules.phases.state import (
    ESCORT_AREA_DEFENCE,
    LIGHT_ATTACK_RANGE,
    MU_PER_ENDURANCE,
    BattleState,
    LightUnit,
    screen_level,
    ship_pos,
    try_fire,
    unit_target_kind,
    volley_text,
)
from battles.rules.sensors import distance
from battles.rules.ships import ShipState
from battles.rules.weapons import anti_ship_at_gunboats, apply_options, get_weapon


def phase_light_fire(state: BattleState) -> None:
    """Phase 10, four sub-phases, effects applied at the end of each (§2).

    (a) every fighter, drone and gunboat squadron with endurance left engages the enemy
    fighter, drone or gunboat squadron within 6 mu with most craft (then unit id), attached or
    not (seed: « Les Chasseurs ciblant une autre unité légère dans un rayon de 6mu peuvent
    attaquer, même si cette unité effectue une projection sur un Vaisseau »); a gunboat
    leaves alone units projecting on a ship (attached to an enemy of theirs) unless it has
    area defence (the PD platform: « sauf si elles disposent de Zone de défense »); missiles
    are not dogfight targets (project reading: one PD-table die per craft, −2 against
    gunboats, D-20). A fighter or drone squadron engaging a gunboat squadron uses its
    anti-ship weapons instead (``weapons.anti_ship_at_gunboats``; seed:
    « Lorsque des Chasseurs engagent des Canonnières, ils peuvent employer leurs armes
    anti-Chasseurs, avec le modificateur de -2 au touché, ou anti-Vaisseaux »): per craft
    the anti-ship mean is higher — an interceptor's die 1/2 loss (4+, "1DF"), a heavy
    fighter's two dice 4/3 — than one PD-table die at −2 (a natural 6: 1/6), so it is the
    AI's choice in auto-resolve and, for now, the only mode the engine offers; (b) fighters,
    drones and gunboats attack
    their target ship within 6 mu (per craft, their catalogue profile); a fighter that
    attacks spends one endurance point; (c) antimatter and plasma bursts: no weapon of the
    catalogue makes one yet (rules §17), nothing to resolve; (d) missiles within their
    to-hit bands strike their target and are spent.
    """
    pending = Pending()
    squadrons = _units(state, ("fighter", "gunboat", "drone"))
    for unit in squadrons:
        if unit.endurance <= 0 or unit.weapon == "gunboat-emp":
            continue  # §9: the EMP launcher « vise les systèmes d'un Vaisseau », ships only
        reach = _dogfight_reach(state, unit)
        foes = [
            u
            for u in squadrons
            if u.side != unit.side
            and distance(u.position, unit.position) <= reach
            and not (
                unit.kind == "gunboat"
                and unit.weapon != ESCORT_AREA_DEFENCE
                and _projecting(state, u)
            )
        ]
        if not foes:
            continue
        foe = max(foes, key=lambda u: (u.craft, u.unit_id))
        if foe.kind == "gunboat" and unit.kind in ("fighter", "drone"):
            # Fighters and drones engage gunboats with their anti-ship weapons.
            volley = anti_ship_at_gunboats(
                unit.weapon, state.dice, count=unit.craft, target_name=foe.unit_id
            )
            pending.add_volley(foe.unit_id, volley, is_unit=True)
            state.log(
                10,
                "dogfight",
                f"{unit.unit_id} engages {foe.unit_id} with anti-ship fire "
                f"({volley.dice} dice): {volley.kills} killed",
                unit=unit.unit_id,
                target=foe.unit_id,
                kills=volley.kills,
                sub_phase="a",
                attack="anti-ship",
                dice=volley.dice,
            )
            continue
        gap = distance(foe.position, unit.position)
        volley = try_fire(
            state,
            10,
            "pd",
            range_mu=0,
            count=dogfight_dice(unit.weapon, unit.craft, gap, state.options),
            target=unit_target_kind(foe),
            target_name=foe.unit_id,
        )
        if volley is not None:
            pending.add_volley(foe.unit_id, volley, is_unit=True)
            state.log(
                10,
                "dogfight",
                f"{unit.unit_id} engages {foe.unit_id} ({volley.dice} dice): {volley.kills} killed",
                unit=unit.unit_id,
                target=foe.unit_id,
                kills=volley.kills,
                sub_phase="a",
                dice=volley.dice,
            )
    apply_pending(state, pending, 10)

    pending = Pending()
    for unit in _units(state, ("fighter", "gunboat", "drone")):
        target = state.ships.get(unit.target or "")
        if target is None or target.side == unit.side or unit.endurance <= 0:
            continue
        range_mu = distance(unit.position, ship_pos(target))
        if range_mu > get_weapon(unit.weapon).max_range:
            continue
        if target.destroyed and unit.kind != "drone":
            continue
        volley = try_fire(
            state,
            10,
            unit.weapon,
            range_mu=range_mu,
            count=unit.craft,
            screen=screen_level(state, target),
            target="ship",
            target_name=target.name,
        )
        if volley is None:
            continue
        unit.endurance = max(0.0, unit.endurance - MU_PER_ENDURANCE[unit.kind])
        if target.destroyed:
            # D-2: drones hit the wreck; rolled and logged, nothing changes.
            state.log(
                10,
                "attack-wreck",
                f"{unit.unit_id} strikes the wreck of {target.name}",
                unit=unit.unit_id,
                target=target.ship_id,
                value=volley.value,
                sub_phase="b",
            )
            continue
        pending.add_volley(target.ship_id, volley, is_unit=False)
        if (
            unit.weapon in ("gunboat-transport", "gunboat-heavy-transport")
            and not unit.squad_landed
        ):
            # §9: a transport squadron lands one squad, once (project reading of « débarquer
            # une escouade »); it keeps attacking with its gun. Boarding is fought in phase 11.
            squad = "fusiliers" if unit.weapon == "gunboat-heavy-transport" else "marines"
            log_damage(state, 10, board(target, squad))
            unit.squad_landed = True
        state.log(
            10,
            "attack",
            f"{unit.unit_id} ({unit.weapon} ×{unit.craft}) attacks {target.name}: "
            f"{volley_text(volley)}",
            unit=unit.unit_id,
            target=target.ship_id,
            dice=volley.dice,
            value=volley.value,
            sub_phase="b",
        )
        if unit.weapon == "gunboat-emp" and state.options.emp_dice_per_projector:
            _second_projector(state, unit, target, pending)
    apply_pending(state, pending, 10)

    pending = Pending()
    for unit in _units(state, ("missile",)):
        target = state.ships.get(unit.target or "")
        if target is None or target.out_of_action:
            continue
        range_mu = distance(unit.position, ship_pos(target))
        if range_mu > get_weapon(unit.weapon).max_range:
            continue
        volley = try_fire(
            state,
            10,
            unit.weapon,
            range_mu=range_mu,
            count=unit.craft,
            target="ship",
            target_name=target.name,
        )
        unit.destroyed = True  # a missile strikes once
        if volley is None:
            continue
        pending.add_volley(target.ship_id, volley, is_unit=False)
        state.log(
            10,
            "missile-strike",
            f"{unit.unit_id} ({unit.weapon}) strikes {target.name}: {volley_text(volley)}",
            unit=unit.unit_id,
            target=target.ship_id,
            value=volley.value,
            sub_phase="d",
        )
    apply_pending(state, pending, 10)


def _second_projector(
    state: BattleState, unit: LightUnit, target: ShipState, pending: Pending
) -> None:
    """D-27 option ``emp_dice_per_projector``: « deux Projecteurs EMP classe 1 … pouvant
    cibler chacun une unité différente » — each craft's second projector rolls its own 1d6
    at the nearest other enemy ship within its 12 mu (the same target when there is none);
    the hits are system checks like the first projector's (D-18)."""
    reach = get_weapon(unit.weapon).max_range
    others = [
        (distance(unit.position, ship_pos(s)), s.ship_id)
        for s in state.in_action(state.enemy_of(unit.side))
        if s.ship_id != target.ship_id
    ]
    near = [o for o in others if o[0] <= reach]
    second = state.ships[min(near)[1]] if near else target
    range_mu = distance(unit.position, ship_pos(second))
    volley = try_fire(
        state,
        10,
        unit.weapon,
        range_mu=min(range_mu, reach),
        count=unit.craft,
        target="ship",
        target_name=f"{second.name} (second projector)",
    )
    if volley is None or second.destroyed:
        return
    pending.add_volley(second.ship_id, volley, is_unit=False)
    state.log(
        10,
        "attack",
        f"{unit.unit_id} ({unit.weapon} ×{unit.craft}) second projectors at {second.name}: "
        f"{volley_text(volley)}",
        unit=unit.unit_id,
        target=second.ship_id,
        dice=volley.dice,
        value=volley.value,
        sub_phase="b",
        projector=2,
    )


def _dogfight_reach(state: BattleState, unit: LightUnit) -> float:
    """How far ``unit`` engages light units in phase 10 (a): 6 mu (« Portée de tir =
    6mu »), but a gunboat out to its profile's range by default (D-26: the PD platform,
    MPC, heavy-transport lines give 12 mu); 6 mu for every unit with the option off."""
    if unit.kind == "gunboat" and state.options.gunboat_profile_range_vs_light:
        return float(max(LIGHT_ATTACK_RANGE, get_weapon(unit.weapon).max_range))
    return LIGHT_ATTACK_RANGE


def dogfight_dice(weapon_id: str, craft: int, range_mu: float, options: RuleOptions) -> int:
    """PD-table dice ``craft`` craft of ``weapon_id`` roll at a light unit ``range_mu`` away
    in phase 10 (a). D-30 (default ``dogfight_profile_dice``): each craft rolls its
    profile's dice — the seed's only dice figures, « Dégâts : 1d6 » (interceptor),
    « Dégâts : 2d6 » (heavy fighter), the gunboat lines at their range (PD platform « 1d6
    (12mu)/ 2d6 (6mu) ») — since « Chasseurs vs Chasseurs » does not keep them for ships;
    option off: one die a craft."""
    if not options.dogfight_profile_dice:
        return craft
    weapon = apply_options(get_weapon(weapon_id), options)
    return weapon.dice_at(min(range_mu, weapon.max_range)) * craft


def _projecting(state: BattleState, unit: LightUnit) -> bool:
    """The unit is projecting on a ship: attached to a ship of another side (§2 phase 3)."""
    host = state.ships.get(unit.attached_to or "")
    return host is not None and host.side != unit.side


def _units(state: BattleState, kinds: Sequence[str]) -> list[LightUnit]:
    return [u for u in state.light_units.values() if u.active and u.kind in kinds]
