"""Volleys at light units and by defence systems (rules §6, §8–§10): point defence,
area defence (scattergun, interceptor nodule), class-1 weapons acting as PD, a ship's beams
at non-attached light units and fighters' anti-ship dice at gunboats.
``weapons.fire_profile`` dispatches here; every name is importable from ``weapons``.
"""

from __future__ import annotations

from battles.rules.dice import Dice
from battles.rules.errors import OutOfRange, RulesError
from battles.rules.options import RuleOptions
from battles.rules.tables import (
    AREA_PLASMA_TABLE,
    BEAM_TABLE,
    PD_GUNBOAT_MODIFIER,
    PD_TABLE,
    SCATTERGUN_SHIP_TABLE,
)
from battles.rules.volleys import Hit, Volley
from battles.rules.weapon_catalogue import DamageType, Effect, Family, Weapon, get_weapon

__all__ = [
    "FIGHTER_IDS",
    "HEAVY_CRAFT",
    "LIGHT_UNIT_TARGETS",
    "anti_ship_at_gunboats",
    "area_loss",
    "engages_light_units",
    "reroll_allowed",
]

_P = DamageType.PENETRATING

#: Fighter and drone weapon ids (D-19 options; anti-ship fire at gunboats, A14).
FIGHTER_IDS = frozenset(
    {"fighter-interceptor", "fighter-heavy", "fighter-long-range", "drone", "drone-heavy"}
)


def reroll_allowed(weapon: Weapon, screen: int, options: RuleOptions) -> bool:
    """§7 (D-11): does a natural 6 of ``weapon`` re-roll against ``screen``?"""
    return weapon.reroll and (screen == 0 or options.reroll_against_screens)


#: Light-unit target kinds a ship's beam weapons may fire at (gunboats are read
#: as ships by the beam table already).
LIGHT_UNIT_TARGETS = ("fighter", "heavy-fighter", "missile")


def engages_light_units(w: Weapon) -> bool:
    """Can this ship weapon fire at a light unit not attached to the firing ship?

    Project reading of rules §6 (restated: "one FC per non-attached light unit targeted by
    heavy weapons"; seed: « lorsque des unités légères non projetées sont visées par les
    armes lourdes du Vaisseau, un Contrôle de tir est nécessaire pour chacune des cibles »):
    the seed gives no profile, so only the beam family's penetrating ship weapons — beams
    1–3, the pulser in every mode, the needle nodule (and the provisional grasers, which
    roll as beams) — may do it. Rocket packs (semi-piercing), the MPC (piercing), to-hit
    weapons (lance, torpedo, launcher nodules) and kinetic guns keep refusing light units.
    """
    return (
        w.family is Family.BEAM
        and not w.light_unit
        and w.effect is Effect.DAMAGE
        and w.damage_type is DamageType.PENETRATING
        and w.damage_per_hit == 1
    )


def _fire_beam_at_light_unit(
    w: Weapon,
    dice: Dice,
    range_mu: float,
    target: str,
    purpose: str,
    count: int,
    power_points: int | None,
    options: RuleOptions,
) -> Volley:
    """A ship's beam weapon at a fighter, heavy fighter, drone or missile unit.

    Project reading of §6 (seed: « lorsque des unités légères non projetées sont visées par
    les armes lourdes du Vaisseau, un Contrôle de tir est nécessaire pour chacune des
    cibles »): the weapon's dice at the range, read on the §7 beam table without screens
    (light units have none), a natural 6 re-rolling as §7/D-11 allow; each hit destroys one
    craft, heavy fighters too. The FC this takes (one per light-unit target) is counted by
    ``sensors.allocate_fire_control``, as for a ship.
    """
    if w.power_points:
        n = w.dice_at(range_mu, power_points=power_points) * count
    else:
        n = w.band(range_mu).dice * count
    table = BEAM_TABLE[0]
    chain = reroll_allowed(w, 0, options)
    max_rerolls = None if options.reroll_chains else 1
    kills = 0
    for faces in dice.roll_chained(n, purpose, chain=chain, max_rerolls=max_rerolls):
        for face in faces:
            kills += table[face - 1]
    return Volley(w.id, range_mu, 0, target, n, kills=kills, value=kills)


def _light_target(w: Weapon, target: str) -> None:
    if target == "ship":
        raise RulesError(f"{w.id}: fires only at light units, not at a ship ({w.section})")


def _fire_pd(
    w: Weapon, dice: Dice, range_mu: float, target: str, purpose: str, count: int
) -> Volley:
    _light_target(w, target)
    n = w.band(range_mu).dice * count
    modifier = PD_GUNBOAT_MODIFIER if target == "gunboat" else 0
    kills = 0
    for face in dice.roll(n, purpose):
        effective = face + modifier
        kills += PD_TABLE[effective - 1] if effective >= 1 else 0
    return Volley(w.id, range_mu, 0, target, n, kills=kills, value=kills)


def _fire_as_pd(
    w: Weapon, dice: Dice, range_mu: float, target: str, purpose: str, count: int
) -> Volley:
    if w.pd_threshold is None:
        raise RulesError(f"{w.id} cannot act as PD (only class-1 weapons and pulsers, §8, §10)")
    _light_target(w, target)
    if range_mu > 6:
        raise OutOfRange(f"{w.id} as PD: range {range_mu:g} mu is beyond 6 mu (§6, §10)")
    modifier = PD_GUNBOAT_MODIFIER if target == "gunboat" else 0
    kills = sum(
        1 for face in dice.roll(count, f"{purpose} (as PD)") if face + modifier >= w.pd_threshold
    )
    return Volley(w.id, range_mu, 0, target, count, kills=kills, value=kills)


#: Fighter-type craft whose anti-ship dice count the beam table's hits against gunboats
#: (every other fighter or drone inflicts one loss per success, D-20).
HEAVY_CRAFT = frozenset({"fighter-heavy", "drone-heavy"})


def anti_ship_at_gunboats(
    weapon: Weapon | str, dice: Dice, *, count: int, target_name: str = "target"
) -> Volley:
    """Phase 10(a): ``count`` fighter or drone craft fire their anti-ship weapons at a gunboat
    squadron (project reading of the seed: « Lorsque des Chasseurs engagent des
    Canonnières, ils peuvent employer leurs armes anti-Chasseurs, avec le modificateur de -2
    au touché, ou anti-Vaisseaux »; « Les Intercepteurs infligent seulement 1DF »).

    Each craft rolls its catalogue dice (interceptor, long-range fighter, drone 1d6; heavy
    fighter, heavy drone 2d6) on the §7 beam table without screens and without re-roll.
    A die scoring 1 or 2 hits inflicts 1 loss for interceptor-type craft (D-20, "1DF": one
    loss per success) and the table's hits (1 or 2) for heavy craft. Dice go to ``dice``
    as ``"<weapon> vs <target_name> (anti-ship), die i"``.
    """
    w = get_weapon(weapon) if isinstance(weapon, str) else weapon
    if w.id not in FIGHTER_IDS:
        raise RulesError(f"{w.id}: only fighters and drones choose anti-ship fire (§9)")
    n = w.band(0).dice * count
    table = BEAM_TABLE[0]
    heavy = w.id in HEAVY_CRAFT
    kills = 0
    for face in dice.roll(n, f"{w.id} vs {target_name} (anti-ship)"):
        hits = table[face - 1]
        kills += hits if heavy else min(hits, 1)
    return Volley(w.id, 0, 0, "gunboat", n, kills=kills, value=kills)


def area_loss(face: int, target: str) -> int:
    """§8 interceptor nodule / §10 scattergun: what one 1d6 does to ``target``.

    Fighters (and missiles) lose ``face``; heavy fighters ``ceil(face/2)`` (D-17);
    plasma loses 0/1/2 strength on 1–3/4–5/6; a ship (scattergun) takes 0/1/2 damage.
    Gunboats (project reading, D-20 — seed: « Les Intercepteurs infligent seulement 1DF »,
    « Systèmes et Zones de défense ont un malus de -2 »): the die is read at −2 and the
    squadron loses 1 when the modified die is 4 or more, else 0.
    """
    if target == "gunboat":
        return 1 if face + PD_GUNBOAT_MODIFIER >= 4 else 0
    if target == "heavy-fighter":
        return -(-face // 2)
    if target == "plasma":
        return AREA_PLASMA_TABLE[face - 1]
    if target == "ship":
        return SCATTERGUN_SHIP_TABLE[face - 1]
    return face


def _fire_area(
    w: Weapon, dice: Dice, range_mu: float, target: str, purpose: str, count: int
) -> Volley:
    w.band(range_mu)
    if target == "ship" and w.id != "scattergun":
        raise RulesError(f"{w.id}: fires only at light units, not at a ship ({w.section})")
    total = sum(area_loss(face, target) for face in dice.roll(count, purpose))
    if target == "ship":
        hits = (Hit(total, w.damage_type or _P),) if total else ()
        return Volley(w.id, range_mu, 0, target, count, hits, value=total)
    return Volley(w.id, range_mu, 0, target, count, kills=total, value=total)
