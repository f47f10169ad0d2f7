"""Volleys: one weapon (or ``count`` identical weapons) fired, before damage (rules §7–§10).

The ship-weapon families live here (beam table, to-hit, kinetic); fire at light units and
by defence systems (PD, area defence, as PD, beams at light units, fighters at gunboats)
in ``defence_fire``, and the ``Hit`` / ``Volley`` records in ``volleys``; their names are
importable from here as before.

:func:`fire` resolves a volley of a catalogue weapon (``battles.rules.weapon_catalogue``,
whose names are importable from here too) with the campaign's rule options;
:func:`fire_profile` fires a profile the options are already applied to (an
:class:`Armoury` entry, resolved once per battle). One resolution path per
:class:`Family`; every die goes through the ``Dice`` given.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from battles.rules.defence_fire import (
    FIGHTER_IDS,
    HEAVY_CRAFT,
    LIGHT_UNIT_TARGETS,
    _fire_area,
    _fire_as_pd,
    _fire_beam_at_light_unit,
    _fire_pd,
    anti_ship_at_gunboats,
    area_loss,
    engages_light_units,
    reroll_allowed,
)
from battles.rules.dice import Dice
from battles.rules.errors import BadArgument, RulesError, real_number, whole_number
from battles.rules.options import DEFAULT_OPTIONS, RuleOptions
from battles.rules.tables import BEAM_TABLE, REROLL_FACE
from battles.rules.volleys import _BEAM_HIT, _BEAM_REROLL_HIT, Hit, Volley, _hit
from battles.rules.weapon_catalogue import (
    ALIASES,
    CATALOGUE,
    Band,
    DamageType,
    Effect,
    Family,
    Weapon,
    _bands,
    get_weapon,
    is_weapon_id,
    weapon_ids,
)

__all__ = [
    "Band",
    "DamageType",
    "Effect",
    "Family",
    "Weapon",
    "CATALOGUE",
    "get_weapon",
    "weapon_ids",
    "is_weapon_id",
    "Hit",
    "Volley",
    "TARGET_KINDS",
    "Armoury",
    "apply_options",
    "fire",
    "fire_profile",
    "resolve_volley",
    "area_loss",
    "kinetic_reroll_add",
    "anti_ship_at_gunboats",
    "engages_light_units",
    "reroll_allowed",
    "FIGHTER_IDS",
    "HEAVY_CRAFT",
    "LIGHT_UNIT_TARGETS",
]

_P = DamageType.PENETRATING
_S = DamageType.SEMI_PIERCING
_X = DamageType.PIERCING


# ---------------------------------------------------------------------------------------
# Options applied to the data, then one resolution path per family.
# ---------------------------------------------------------------------------------------

#: Target kinds a volley may be aimed at.
TARGET_KINDS: tuple[str, ...] = ("ship", "fighter", "heavy-fighter", "gunboat", "missile", "plasma")


def apply_options(weapon: Weapon, options: RuleOptions = DEFAULT_OPTIONS) -> Weapon:
    """The weapon as the campaign's rule options make it (D-13, D-14, D-16, D-19).

    The catalogue holds the reference readings, so the default options change nothing.
    """
    if options is DEFAULT_OPTIONS:
        return weapon
    return _apply_options(weapon, options)


def _apply_options(weapon: Weapon, options: RuleOptions) -> Weapon:
    if weapon.id == "rocket-pack" and options.rocket_pack_reroll:
        return replace(weapon, reroll=True)
    if weapon.id == "mpc":
        if options.mpc_dice != 1:
            weapon = replace(weapon, bands=_bands((0, 12, options.mpc_dice)))
        return replace(weapon, reroll=True) if options.mpc_reroll else weapon
    if weapon.id == "gunboat-mpc" and options.mpc_reroll:
        return replace(weapon, reroll=True)
    if weapon.id == "gunboat-emp" and options.emp_reroll:
        return replace(weapon, reroll=True)
    if weapon.id in FIGHTER_IDS:
        return replace(weapon, screens=options.fighter_screens_apply, reroll=options.fighter_reroll)
    if weapon.id == "plasma-torpedo" and options.torpedo_point_blank_to_hit != 3:
        first = (Band(0, 3, to_hit=options.torpedo_point_blank_to_hit), Band(4, 6, to_hit=3))
        return replace(weapon, bands=first + weapon.bands[1:])
    return weapon


# Enum members read through their class cost an attribute look-up on the enum's metaclass
# at every use; the resolution paths below read these module constants instead.
_BEAM, _TO_HIT, _KINETIC, _PD_FAMILY = Family.BEAM, Family.TO_HIT, Family.KINETIC, Family.PD
_SYSTEM_CHECK, _SYSTEM, _KILLS = Effect.SYSTEM_CHECK, Effect.SYSTEM, Effect.KILLS


def default_target(weapon: Weapon) -> str:
    """``fighter`` for weapons that only kill light units, else ``ship``."""
    return "fighter" if weapon.effect is _KILLS and weapon.id != "scattergun" else "ship"


def fire(
    weapon: object,
    dice: object,
    *,
    range_mu: object,
    screen: object = 0,
    target: str | None = None,
    target_name: str = "target",
    power_points: object = None,
    count: object = 1,
    as_pd: bool = False,
    options: RuleOptions = DEFAULT_OPTIONS,
) -> Volley:
    """Resolve one volley of ``count`` identical weapons at ``range_mu`` (mu).

    ``screen``: the target's screen level 0–3 (ignored by weapons without ``screens``).
    ``target``: one of :data:`TARGET_KINDS` (default :func:`default_target`).
    ``power_points``: needle nodule only (§8). ``as_pd``: a class-1 weapon firing as PD
    (§8, §10: one die per weapon, ≤ 6 mu, kills one light unit on ``pd_threshold``+).
    Every die goes to ``dice`` with purpose ``"<weapon> vs <target_name>, die i"``.

    Raises :class:`UnknownWeapon`, :class:`OutOfRange` (§8–10 bands),
    :class:`RulesError` for a target the family cannot engage, and :class:`BadArgument`
    naming the field for a weapon that is neither an id nor a ``Weapon``, a ``range_mu``
    that is not a number, a ``count``, ``screen`` or ``power_points`` that is not a whole
    number.
    """
    if isinstance(weapon, str):
        # get_weapon(weapon) without a call for a catalogue id; anything else goes through it
        w = CATALOGUE.get(ALIASES.get(weapon, weapon)) or get_weapon(weapon)
    elif isinstance(weapon, Weapon):
        w = weapon
    else:
        raise BadArgument(f"fire: weapon must be a weapon id or a Weapon, got {weapon!r}")
    if not isinstance(dice, Dice):
        raise BadArgument(f"fire: dice must be a battles.rules.dice.Dice, got {dice!r}")
    return fire_profile(
        apply_options(w, options),
        dice,
        range_mu=range_mu,
        screen=screen,
        target=target,
        target_name=target_name,
        power_points=power_points,
        count=count,
        as_pd=as_pd,
        options=options,
    )


class Armoury(dict[str, "Weapon"]):
    """The weapon profiles of one battle: catalogue id (or alias) → its ``Weapon`` with the
    battle's rule options applied (§16: D-13, D-14, D-16, D-19), each resolved on first use
    and kept. ``BattleState.armoury``; fire with :func:`fire_profile`."""

    def __init__(self, options: RuleOptions = DEFAULT_OPTIONS) -> None:
        super().__init__()
        self.options = options

    def __missing__(self, weapon_id: str) -> Weapon:
        weapon = self[weapon_id] = apply_options(get_weapon(weapon_id), self.options)
        return weapon


def fire_profile(
    w: Weapon,
    dice: Dice,
    *,
    range_mu: object,
    screen: object = 0,
    target: str | None = None,
    target_name: str = "target",
    power_points: object = None,
    count: object = 1,
    as_pd: bool = False,
    options: RuleOptions = DEFAULT_OPTIONS,
) -> Volley:
    """:func:`fire` for a weapon profile ``options`` are already applied to (an
    :class:`Armoury` entry): the same checks, dice and volley, without looking the weapon
    up or applying the options again. Raises as ``fire`` does."""
    range_mu, screen, count, power_points = _check_volley_arguments(
        w.id, range_mu, screen, count, power_points
    )
    target = target or ("fighter" if as_pd else default_target(w))
    if target not in TARGET_KINDS:
        raise RulesError(
            f"{w.id}: unknown target kind {target!r}, expected one of "
            f"{', '.join(TARGET_KINDS)} (§8–10)"
        )
    if not 0 <= screen <= 3:
        raise RulesError(f"{w.id}: screen level must be 0–3, got {screen} (§7)")
    return resolve_volley(
        w, dice, range_mu, screen, target, target_name, power_points, count, as_pd, options
    )


def resolve_volley(
    w: Weapon,
    dice: Dice,
    range_mu: float,
    screen: int,
    target: str,
    target_name: str,
    power_points: int | None,
    count: int,
    as_pd: bool,
    options: RuleOptions,
) -> Volley:
    """:func:`fire_profile` after its argument checks, for the turn's own volleys, whose
    arguments the engine computed itself (a range from positions, a screen level 0–3, a
    target kind of :data:`TARGET_KINDS`, power points checked in phase 1). Raises what
    the rules refuse (``OutOfRange``, a target the family cannot engage) as ``fire``."""
    if w.modes:
        w = apply_options(best_mode(w, range_mu, screen, options), options)
    # Every die's purpose starts with this; unrecorded dice keep none, so none is written.
    purpose = f"{w.id} vs {target_name}" if dice.recording else ""
    if as_pd:
        return _fire_as_pd(w, dice, range_mu, target, purpose, count)
    family = w.family
    if family is _BEAM:
        return _fire_beam(w, dice, range_mu, screen, target, purpose, count, power_points, options)
    if family is _TO_HIT:
        return _fire_to_hit(w, dice, range_mu, screen, target, purpose, count)
    if family is _KINETIC:
        return _fire_kinetic(w, dice, range_mu, screen, target, purpose, count)
    if family is _PD_FAMILY:
        return _fire_pd(w, dice, range_mu, target, purpose, count)
    return _fire_area(w, dice, range_mu, target, purpose, count)


def _check_volley_arguments(
    weapon_id: str, range_mu: object, screen: object, count: object, power_points: object
) -> tuple[float, int, int, int | None]:
    """The argument types of :func:`fire` and ``odds.odds``, returned as they are once
    checked; :class:`BadArgument` naming the field otherwise (plain ints and floats pass at
    the cost of a type test). The public functions take ``object`` for these so that a
    wrong type reaches this check in the compiled engine too (not mypyc's TypeError)."""
    if type(range_mu) is not int and type(range_mu) is not float:
        real_number(range_mu, "range_mu", weapon_id, minimum=float("-inf"))
    if type(count) is not int:
        whole_number(count, "count (identical weapons firing, §8–10)", weapon_id)
    elif count < 0:
        raise BadArgument(f"{weapon_id}: cannot fire {count} weapons, expected a count ≥ 0 (§8–10)")
    if type(screen) is not int:
        whole_number(screen, "screen (level 0–3, §7)", weapon_id)
    if power_points is not None and type(power_points) is not int:
        whole_number(power_points, "power_points (§8)", weapon_id)
    return (
        cast(float, range_mu),
        cast(int, screen),
        cast(int, count),
        cast("int | None", power_points),
    )


def best_mode(weapon: Weapon, range_mu: float, screen: int, options: RuleOptions) -> Weapon:
    """For a multi-mode weapon (pulser), the in-range mode with the highest mean (§8).

    A weapon's modes share one per-die table, screens and re-roll rule, so the mean is
    proportional to the dice rolled: the mode with the most dice at ``range_mu`` wins (the
    first listed on a tie). ``screen`` and ``options`` scale every mode alike.
    """
    best: Weapon | None = None
    most = -1
    for mode_id in weapon.modes:
        mode = CATALOGUE[mode_id]
        if range_mu > mode.max_range:
            continue
        dice = mode.dice_at(range_mu) * mode.damage_per_hit
        if dice > most:
            best, most = mode, dice
    if best is None:
        weapon.band(range_mu)  # raises OutOfRange with the weapon's section
        raise AssertionError("unreachable")
    return best


def _fire_beam(
    w: Weapon,
    dice: Dice,
    range_mu: float,
    screen: int,
    target: str,
    purpose: str,
    count: int,
    power_points: int | None,
    options: RuleOptions,
) -> Volley:
    if target not in ("ship", "gunboat"):
        if target not in LIGHT_UNIT_TARGETS or not engages_light_units(w):
            raise RulesError(
                f"{w.id}: beam-table weapons engage ships and gunboats; light units attached "
                f"to a ship take PD fire (use as_pd, §6, §10), not {target!r}"
            )
        return _fire_beam_at_light_unit(
            w, dice, range_mu, target, purpose, count, power_points, options
        )
    if w.power_points:
        n = w.dice_at(range_mu, power_points=power_points) * count
    else:
        n = w.band(range_mu).dice * count  # OutOfRange for a range beyond the last band
    level = screen if w.screens else 0
    table = BEAM_TABLE[level]
    chain = w.reroll and (level == 0 or options.reroll_against_screens)  # reroll_allowed
    max_rerolls = None if options.reroll_chains else 1
    first_total = reroll_total = 0
    for faces in dice.roll_chained(n, purpose, chain=chain, max_rerolls=max_rerolls):
        first_total += table[faces[0] - 1]
        for face in faces[1:]:
            reroll_total += table[face - 1]
    total = first_total + reroll_total
    if w.effect is _SYSTEM_CHECK:
        return Volley(w.id, range_mu, level, target, n, systems=total, value=total)
    dtype = w.damage_type or _P
    per = w.damage_per_hit
    hits: tuple[Hit, ...] = ()
    if dtype is _S:
        if total:
            hits = (Hit(total * per, dtype),)
    elif first_total or reroll_total:
        # Hits are immutable: one instance per kind, repeated (the usual beam hits prebuilt).
        if per == 1 and dtype is _P:
            hits = (_BEAM_HIT,) * first_total + (_BEAM_REROLL_HIT,) * reroll_total
        else:
            hits = (_hit(per, dtype),) * first_total + (_hit(per, dtype, True),) * reroll_total
    return Volley(w.id, range_mu, level, target, n, hits, value=total * per)


def _fire_to_hit(
    w: Weapon, dice: Dice, range_mu: float, screen: int, target: str, purpose: str, count: int
) -> Volley:
    if target not in ("ship", "gunboat"):
        raise RulesError(f"{w.id}: engages ships and gunboats, not {target!r} ({w.section})")
    if target == "gunboat" and w.id.startswith("missile-"):
        raise RulesError(f"{w.id}: missiles never lock on gunboats (§9)")
    need = w.band(range_mu).to_hit
    hits: list[Hit] = []
    successes = 0
    for i in range(1, count + 1):
        shot = f"{purpose}, shot {i}"
        if dice.d6(f"{shot} to-hit {need}+") < need:
            continue
        successes += 1
        if w.effect is _SYSTEM:
            continue
        damage = w.damage_fixed + sum(dice.roll(w.damage_dice, f"{shot} damage"))
        hits.append(_hit(damage, w.damage_type or _P))
    if w.effect is _SYSTEM:
        return Volley(w.id, range_mu, 0, target, count, systems=successes, value=successes)
    value = sum(h.damage for h in hits)
    return Volley(w.id, range_mu, 0, target, count, tuple(hits), value=value)


def kinetic_reroll_add(face: int, c: int) -> int:
    """§8 (D-15): damage a kinetic re-roll adds: ``c`` when the face beats ``c``, else ``2c``."""
    return c if face > c else 2 * c


def _fire_kinetic(
    w: Weapon, dice: Dice, range_mu: float, screen: int, target: str, purpose: str, count: int
) -> Volley:
    if target not in ("ship", "gunboat"):
        raise RulesError(f"{w.id}: engages ships and gunboats, not {target!r} ({w.section})")
    need = w.band(range_mu).to_hit
    c = w.kinetic_class
    hits: list[Hit] = []
    for i in range(1, count + 1):
        shot = f"{purpose}, shot {i}"
        face = dice.d6(f"{shot} to-hit {need}+")
        if face < need:
            continue
        damage = c
        k = 0
        while face == REROLL_FACE:
            k += 1
            face = dice.d6(f"{shot}, re-roll {k}")
            damage += kinetic_reroll_add(face, c)
        hits.append(_hit(damage, _X))
    value = sum(h.damage for h in hits)
    return Volley(w.id, range_mu, 0, target, count, tuple(hits), value=value)
