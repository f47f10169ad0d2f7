"""Volleys: one weapon (or ``count`` identical weapons) fired, before damage (rules §7–§10).

:func:`fire` resolves a volley of a catalogue weapon (``battles.rules.weapon_catalogue``,
whose names are importable from here too) with the campaign's rule options;
:func:`fire_profile` fires a profile the options are already applied to (an
:class:`Armoury` entry, resolved once per battle). One resolution path per
:class:`Family`; every die goes through the ``Dice`` given.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from operator import attrgetter
from typing import NamedTuple

from .dice import Dice
from .errors import BadArgument, OutOfRange, RulesError, real_number, whole_number
from .options import DEFAULT_OPTIONS, RuleOptions
from .tables import (
    AREA_PLASMA_TABLE,
    BEAM_TABLE,
    PD_GUNBOAT_MODIFIER,
    PD_TABLE,
    REROLL_FACE,
    SCATTERGUN_SHIP_TABLE,
)
from .weapon_catalogue import (  # the catalogue's names stay importable from here
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
    "area_loss",
    "kinetic_reroll_add",
    "anti_ship_at_gunboats",
]

_P = DamageType.PENETRATING
_S = DamageType.SEMI_PIERCING
_X = DamageType.PIERCING


# ---------------------------------------------------------------------------------------
# Options applied to the data, then one resolution path per family.
# ---------------------------------------------------------------------------------------

#: Target kinds a volley may be aimed at.
TARGET_KINDS: tuple[str, ...] = ("ship", "fighter", "heavy-fighter", "gunboat", "missile", "plasma")
_FIGHTER_IDS = frozenset(
    {"fighter-interceptor", "fighter-heavy", "fighter-long-range", "drone", "drone-heavy"}
)


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
    if weapon.id in _FIGHTER_IDS:
        return replace(weapon, screens=options.fighter_screens_apply, reroll=options.fighter_reroll)
    if weapon.id == "plasma-torpedo" and options.torpedo_point_blank_to_hit != 3:
        first = (Band(0, 3, to_hit=options.torpedo_point_blank_to_hit), Band(4, 6, to_hit=3))
        return replace(weapon, bands=first + weapon.bands[1:])
    return weapon


@dataclass(frozen=True, slots=True)
class Hit:
    """A packet of damage for ``damage.py``: ``damage`` boxes of ``damage_type``.

    Penetrating hits come one box each; ``reroll=True`` marks a hit scored by a re-roll die,
    which goes straight to hull (§7, §11). Piercing hits carry a kinetic / MPC hit's whole
    damage; a semi-piercing packet is a whole torpedo / missile / rocket-pack total (§11).
    """

    damage: int
    damage_type: DamageType
    reroll: bool = False


_damage_of = attrgetter("damage")


class Volley(NamedTuple):
    """What one weapon (or ``count`` identical weapons) did, before damage is applied.

    ``value`` is the measure :mod:`odds` gives the distribution of: damage boxes for damage
    weapons, systems for the lance and EMP, kills (light units lost, plasma strength lost)
    for PD and area weapons.
    """

    weapon: str
    range_mu: float
    screen: int
    target: str
    dice: int
    hits: tuple[Hit, ...] = ()
    kills: int = 0
    systems: int = 0
    value: int = 0

    @property
    def damage(self) -> int:
        """Total damage boxes carried by ``hits``."""
        return sum(map(_damage_of, self.hits))  # sum(h.damage for h in self.hits)

    def notation(self) -> str:
        """One log line, e.g. ``"beam-2 @12mu s1 vs ship: 2 dice → 3 damage (1 re-roll)"``."""
        kind = "kills" if self.kills else "systems" if self.systems else "damage"
        rerolls = sum(1 for h in self.hits if h.reroll)
        extra = f" ({rerolls} re-roll)" if rerolls else ""
        return (
            f"{self.weapon} @{self.range_mu:g}mu s{self.screen} vs {self.target}: "
            f"{self.dice} dice → {self.value} {kind}{extra}"
        )


_HITS: dict[tuple[int, DamageType, bool], Hit] = {}


def _hit(damage: int, damage_type: DamageType, reroll: bool = False) -> Hit:
    """A shared ``Hit(damage, damage_type, reroll)`` (see above)."""
    key = (damage, damage_type, reroll)
    found = _HITS.get(key)
    if found is None:
        found = _HITS[key] = Hit(damage, damage_type, reroll)
    return found


_BEAM_HIT = _hit(1, DamageType.PENETRATING)
_BEAM_REROLL_HIT = _hit(1, DamageType.PENETRATING, True)


# Enum members read through their class cost an attribute look-up on the enum's metaclass
# at every use; the resolution paths below read these module constants instead.
_BEAM, _TO_HIT, _KINETIC, _PD_FAMILY = Family.BEAM, Family.TO_HIT, Family.KINETIC, Family.PD
_SYSTEM_CHECK, _SYSTEM, _KILLS = Effect.SYSTEM_CHECK, Effect.SYSTEM, Effect.KILLS


def reroll_allowed(weapon: Weapon, screen: int, options: RuleOptions) -> bool:
    """§7 (D-11): does a natural 6 of ``weapon`` re-roll against ``screen``?"""
    return weapon.reroll and (screen == 0 or options.reroll_against_screens)


def default_target(weapon: Weapon) -> str:
    """``fighter`` for weapons that only kill light units, else ``ship``."""
    return "fighter" if weapon.effect is _KILLS and weapon.id != "scattergun" else "ship"


def fire(
    weapon: Weapon | str,
    dice: Dice,
    *,
    range_mu: float,
    screen: int = 0,
    target: str | None = None,
    target_name: str = "target",
    power_points: int | None = None,
    count: int = 1,
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
    range_mu: float,
    screen: int = 0,
    target: str | None = None,
    target_name: str = "target",
    power_points: int | None = None,
    count: int = 1,
    as_pd: bool = False,
    options: RuleOptions = DEFAULT_OPTIONS,
) -> Volley:
    """:func:`fire` for a weapon profile ``options`` are already applied to (an
    :class:`Armoury` entry): the same checks, dice and volley, without looking the weapon
    up or applying the options again. Raises as ``fire`` does."""
    _check_volley_arguments(w.id, range_mu, screen, count, power_points)
    target = target or ("fighter" if as_pd else default_target(w))
    if target not in TARGET_KINDS:
        raise RulesError(
            f"{w.id}: unknown target kind {target!r}, expected one of "
            f"{', '.join(TARGET_KINDS)} (§8–10)"
        )
    if not 0 <= screen <= 3:
        raise RulesError(f"{w.id}: screen level must be 0–3, got {screen} (§7)")
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
) -> None:
    """The argument types of :func:`fire` and ``odds.odds``; :class:`BadArgument` naming
    the field otherwise (plain ints and floats pass at the cost of a type test)."""
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


#: Light-unit target kinds a ship's beam weapons may fire at (audit A12; gunboats are read
#: as ships by the beam table already).
LIGHT_UNIT_TARGETS = ("fighter", "heavy-fighter", "missile")


def engages_light_units(w: Weapon) -> bool:
    """Can this ship weapon fire at a light unit not attached to the firing ship (audit A12)?

    Project reading of §6 (ft-incursion.md: "one FC per non-attached light unit targeted by
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
    """A ship's beam weapon at a fighter, heavy fighter, drone or missile unit (audit A12).

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
    squadron (audit A14; project reading of the seed: « Lorsque des Chasseurs engagent des
    Canonnières, ils peuvent employer leurs armes anti-Chasseurs, avec le modificateur de -2
    au touché, ou anti-Vaisseaux »; « Les Intercepteurs infligent seulement 1DF »).

    Each craft rolls its catalogue dice (interceptor, long-range fighter, drone 1d6; heavy
    fighter, heavy drone 2d6) on the §7 beam table without screens and without re-roll.
    A die scoring 1 or 2 hits inflicts 1 loss for interceptor-type craft (D-20, "1DF": one
    loss per success) and the table's hits (1 or 2) for heavy craft. Dice go to ``dice``
    as ``"<weapon> vs <target_name> (anti-ship), die i"``.
    """
    w = get_weapon(weapon) if isinstance(weapon, str) else weapon
    if w.id not in _FIGHTER_IDS:
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
