"""The weapon catalogue as data (rules/ft-incursion.md §8–§10).

Every weapon is a :class:`Weapon` of one :class:`Family`; :func:`fire` (bottom of this
module) has one resolution path per family, driven by these fields. Weapon ids
are stable strings (DESIGN.md §3). Parametrised ids — ``kgun-<c>``, ``kgun-hv-<c>``,
``kgun-lv-<c>``, ``graser-<c>`` — are built on demand by :func:`get_weapon`.

Project readings beyond the seed are flagged ``provisional=True`` with a ``note``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from operator import attrgetter
from typing import NamedTuple

from .dice import Dice
from .errors import BadArgument, OutOfRange, RulesError, UnknownWeapon, real_number, whole_number
from .options import DEFAULT_OPTIONS, RuleOptions
from .tables import (
    AREA_PLASMA_TABLE,
    BEAM_TABLE,
    PD_GUNBOAT_MODIFIER,
    PD_TABLE,
    REROLL_FACE,
    SCATTERGUN_SHIP_TABLE,
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
    "apply_options",
    "fire",
    "area_loss",
    "kinetic_reroll_add",
    "anti_ship_at_gunboats",
]


class Family(StrEnum):
    """How a weapon is resolved (one code path each)."""

    BEAM = "beam"  # N dice on the §7 table (optionally screened, optionally re-rolled)
    TO_HIT = "to-hit"  # one roll per shot against a band threshold, then damage
    KINETIC = "kinetic"  # to-hit per band, class-c damage, §8 re-roll chain
    PD = "pd"  # per-die kills against light units (§10)
    AREA = "area"  # 1d6 losses in a radius (interceptor nodule, scattergun)


class DamageType(StrEnum):
    """§11: how damage splits between armour and hull."""

    PENETRATING = "penetrating"
    SEMI_PIERCING = "semi-piercing"
    PIERCING = "piercing"


class Effect(StrEnum):
    """What a success does."""

    DAMAGE = "damage"  # armour / hull boxes per the damage type
    SYSTEM = "system"  # lance: destroys one system (not a command system)
    SYSTEM_CHECK = "system-check"  # EMP (D-18): one system check at 4+ per hit
    KILLS = "kills"  # light units destroyed (PD family, area family)


@dataclass(frozen=True, slots=True)
class Band:
    """One inclusive range band ``lo..hi`` in mu.

    ``dice``: dice rolled in this band (beam family, PD family). ``to_hit``: lowest face that
    hits (to-hit and kinetic families). ``pp_cost``: power points per die (needle nodule).
    """

    lo: int
    hi: int
    dice: int = 0
    to_hit: int = 0
    pp_cost: int = 0


@dataclass(frozen=True, slots=True)
class Weapon:
    """One catalogue entry. Fields are data for the family's resolution path.

    - ``bands``: ordered, contiguous range bands (mu, inclusive).
    - ``screens``: True when the target's screen level picks the §7 row.
    - ``reroll``: natural 6 grants a chained re-roll (§7, D-11; kinetic §8, D-15).
    - ``damage_per_hit``: boxes per beam-table hit (MPC: 4).
    - ``damage_dice`` / ``damage_fixed``: damage of one to-hit success (Nd6 + fixed).
    - ``kinetic_class``: c for kinetic guns (c damage per hit).
    - ``pd_threshold``: face that kills one light unit when used as PD (class-1 weapons, 5+).
    - ``magazine``: needs a linked, intact magazine (§8); ``single_use``: fires once (MPC,
      scattergun).
    - ``light_unit``: carried by fighters, gunboats or missiles (§9).
    - ``section``: the rule section, quoted in error messages.
    """

    id: str
    name: str
    family: Family
    section: str
    bands: tuple[Band, ...]
    damage_type: DamageType | None = DamageType.PENETRATING
    effect: Effect = Effect.DAMAGE
    screens: bool = False
    reroll: bool = False
    damage_per_hit: int = 1
    damage_dice: int = 0
    damage_fixed: int = 0
    kinetic_class: int = 0
    pd_threshold: int | None = None
    magazine: bool = False
    single_use: bool = False
    light_unit: bool = False
    power_points: bool = False
    modes: tuple[str, ...] = ()
    provisional: bool = False
    note: str = ""
    tags: frozenset[str] = field(default_factory=frozenset)

    @property
    def max_range(self) -> int:
        """The last band's upper bound, mu."""
        return self.bands[-1].hi

    def band(self, range_mu: float) -> Band:
        """The band containing ``range_mu``; raises :class:`OutOfRange` beyond the last band."""
        if range_mu < 0:
            raise OutOfRange(f"{self.id}: range {range_mu} mu is negative ({self.section})")
        for band in self.bands:
            # Bands are whole mu: a fractional range belongs to the band whose upper bound it
            # does not exceed.
            if range_mu <= band.hi:
                return band
        raise OutOfRange(
            f"{self.id}: range {range_mu:g} mu is beyond its last band "
            f"({self.bands[0].lo}–{self.max_range} mu, {self.section})"
        )

    def dice_at(self, range_mu: float, *, power_points: int | None = None) -> int:
        """Dice rolled at ``range_mu`` (beam and PD families).

        Needle nodule (§8): ``power_points`` buy dice at ``pp_cost`` per die in the band,
        rounded down; ``power_points`` is required for it.
        """
        band = self.band(range_mu)
        if self.power_points:
            if power_points is None or power_points < 0:
                raise RulesError(
                    f"{self.id}: needs a number of power points ≥ 0, got {power_points} "
                    f"({self.section})"
                )
            return power_points // band.pp_cost
        return band.dice


def _bands(*rows: tuple[int, int, int]) -> tuple[Band, ...]:
    """Dice bands from (lo, hi, dice) rows."""
    return tuple(Band(lo, hi, dice=d) for lo, hi, d in rows)


def _to_hit(*rows: tuple[int, int, int]) -> tuple[Band, ...]:
    """To-hit bands from (lo, hi, lowest face that hits) rows."""
    return tuple(Band(lo, hi, to_hit=t) for lo, hi, t in rows)


# §8 plasma torpedo (D-13: 0–3 mu uses 3+), and the launcher-nodule projectiles.
_TORPEDO_BANDS = _to_hit((0, 6, 3), (7, 12, 4), (13, 18, 5), (19, 24, 6))
# §9 missiles.
_MISSILE_BANDS = _to_hit((0, 12, 3), (13, 18, 4), (19, 24, 5), (25, 36, 6))
_LIGHT_ATTACK = 6  # §9: light units attack at 6 mu

_P = DamageType.PENETRATING
_S = DamageType.SEMI_PIERCING
_X = DamageType.PIERCING


def _fixed_catalogue() -> dict[str, Weapon]:
    w: list[Weapon] = [
        # ---- §8 ship weapons: beam family ----
        Weapon(
            "beam-1",
            "Beam class 1",
            Family.BEAM,
            "§8",
            _bands((0, 12, 3), (13, 24, 2), (25, 36, 1)),
            screens=True,
            reroll=True,
            pd_threshold=5,
        ),
        Weapon(
            "beam-2",
            "Beam class 2",
            Family.BEAM,
            "§8",
            _bands((0, 12, 2), (13, 24, 1)),
            screens=True,
            reroll=True,
        ),
        Weapon(
            "beam-3",
            "Beam class 3",
            Family.BEAM,
            "§8",
            _bands((0, 12, 1)),
            screens=True,
            reroll=True,
        ),
        Weapon(
            "needle-nodule",
            "Needle nodule (Sa'vasku)",
            Family.BEAM,
            "§8",
            tuple(Band(12 * i + (1 if i else 0), 12 * i + 12, pp_cost=2**i) for i in range(6)),
            screens=True,
            reroll=True,
            power_points=True,
            note="power points buy dice: 1 PP per die at 0–12 mu, doubling each 12 mu band",
        ),
        Weapon(
            "pulser-short",
            "Pulser, short mode (Phalon)",
            Family.BEAM,
            "§8",
            _bands((0, 12, 6)),
            screens=True,
            reroll=True,
            pd_threshold=5,
        ),
        Weapon(
            "pulser-medium",
            "Pulser, medium mode (Phalon)",
            Family.BEAM,
            "§8",
            _bands((0, 24, 2)),
            screens=True,
            reroll=True,
            pd_threshold=5,
        ),
        Weapon(
            "pulser-long",
            "Pulser, long mode (Phalon)",
            Family.BEAM,
            "§8",
            _bands((0, 36, 1)),
            screens=True,
            reroll=True,
            pd_threshold=5,
        ),
        Weapon(
            "pulser",
            "Pulser (Phalon)",
            Family.BEAM,
            "§8",
            _bands((0, 36, 1)),
            screens=True,
            reroll=True,
            pd_threshold=5,
            modes=("pulser-short", "pulser-medium", "pulser-long"),
            note="mode chosen each turn; without a mode the best mode at the range is used",
        ),
        Weapon(
            "rocket-pack",
            "Rocket pack",
            Family.BEAM,
            "§8",
            _bands((0, 6, 3), (7, 12, 2), (13, 18, 1)),
            damage_type=_S,
            screens=False,
            reroll=False,
            magazine=True,
            note="beam-table hits without re-roll (D-14), summed then split semi-piercing",
        ),
        Weapon(
            "mpc",
            "Multi-penetrator (Kra'vak)",
            Family.BEAM,
            "§8",
            _bands((0, 12, 1)),
            damage_type=_X,
            screens=False,
            reroll=False,
            damage_per_hit=4,
            single_use=True,
            note="1d6 per MPC (D-16) on the unscreened beam table, no re-roll (D-14), 4 "
            "piercing damage per hit",
        ),
        # ---- §8 to-hit family ----
        Weapon(
            "lance",
            "Lance",
            Family.TO_HIT,
            "§8",
            _to_hit((0, 9, 6)),
            damage_type=None,
            effect=Effect.SYSTEM,
            note="destroys one system of the attacker's choice, never a command system; "
            "needs an FC directing nothing else (D-12)",
        ),
        Weapon(
            "plasma-torpedo",
            "Plasma torpedo",
            Family.TO_HIT,
            "§8",
            _TORPEDO_BANDS,
            damage_type=_S,
            damage_dice=1,
            magazine=True,
        ),
        Weapon(
            "penetrator",
            "Launcher nodule: penetrator (Sa'vasku)",
            Family.TO_HIT,
            "§8",
            _TORPEDO_BANDS,
            damage_type=_X,
            damage_dice=1,
            note="costs 1 biomass + 3 PP per shot",
        ),
        Weapon(
            "vampire",
            "Launcher nodule: vampire (Sa'vasku)",
            Family.TO_HIT,
            "§8",
            _TORPEDO_BANDS,
            damage_type=_P,
            damage_fixed=2,
            note="2 damage now, then 2 every turn until neutralised by damage control",
        ),
        # ---- §8/§10 area family ----
        Weapon(
            "interceptor-nodule",
            "Launcher nodule: interceptor (Sa'vasku)",
            Family.AREA,
            "§8",
            (Band(0, 12),),
            damage_type=None,
            effect=Effect.KILLS,
            note="light units in 12 mu lose 1d6 (heavy fighters 1d6/2 round up, D-17)",
        ),
        Weapon(
            "scattergun",
            "Scattergun (Kra'vak)",
            Family.AREA,
            "§10",
            (Band(0, 6),),
            damage_type=_P,
            effect=Effect.KILLS,
            single_use=True,
            note="light units lose 1d6; a ship takes 0/1/2 damage on 1–3/4–5/6, no re-roll",
        ),
        # ---- §10 PD family ----
        Weapon(
            "pd",
            "Point defence",
            Family.PD,
            "§10",
            _bands((0, 6, 1)),
            damage_type=None,
            effect=Effect.KILLS,
        ),
        Weapon(
            "adaf",
            "Area defence (ADAF)",
            Family.PD,
            "§10",
            _bands((0, 6, 1)),
            damage_type=None,
            effect=Effect.KILLS,
        ),
        Weapon(
            "spicule",
            "Spicule (Sa'vasku)",
            Family.PD,
            "§10",
            _bands((0, 6, 1)),
            damage_type=None,
            effect=Effect.KILLS,
            note="costs 1 biomass + 3 PP",
        ),
        # ---- §9 missiles (one entry = one missile; a salvo launch is 6 of them) ----
        Weapon(
            "missile-standard",
            "Standard missile",
            Family.TO_HIT,
            "§9",
            _MISSILE_BANDS,
            damage_type=_S,
            damage_dice=2,
            light_unit=True,
        ),
        Weapon(
            "missile-heavy",
            "Heavy missile",
            Family.TO_HIT,
            "§9",
            _MISSILE_BANDS,
            damage_type=_S,
            damage_dice=3,
            light_unit=True,
        ),
        Weapon(
            "missile-salvo",
            "Salvo missile (one of a salvo of 6)",
            Family.TO_HIT,
            "§9",
            _MISSILE_BANDS,
            damage_type=_S,
            damage_dice=1,
            light_unit=True,
            note="a launch is a salvo of 6 missiles (one unit, 6 craft); each missile left "
            "rolls its to-hit and strikes for 1d6 (« Salve (par 6) … Dégâts : 6d6 »)",
        ),
        # ---- §9 fighters (per craft; D-19: beam table, penetrating, screens apply) ----
        Weapon(
            "fighter-interceptor",
            "Interceptor fighter",
            Family.BEAM,
            "§9",
            _bands((0, _LIGHT_ATTACK, 1)),
            screens=True,
            reroll=True,
            light_unit=True,
        ),
        Weapon(
            "fighter-heavy",
            "Heavy fighter",
            Family.BEAM,
            "§9",
            _bands((0, _LIGHT_ATTACK, 2)),
            screens=True,
            reroll=True,
            light_unit=True,
        ),
        Weapon(
            "fighter-long-range",
            "Long-range fighter",
            Family.BEAM,
            "§9",
            _bands((0, _LIGHT_ATTACK, 1)),
            screens=True,
            reroll=True,
            light_unit=True,
            provisional=True,
            note="attacks as an interceptor fighter (project reading)",
        ),
        Weapon(
            "drone",
            "Drone",
            Family.BEAM,
            "§9",
            _bands((0, _LIGHT_ATTACK, 1)),
            screens=True,
            reroll=True,
            light_unit=True,
            note="attacks as its fighter type (interceptor profile); hits wrecks (D-2)",
        ),
        Weapon(
            "drone-heavy",
            "Heavy drone",
            Family.BEAM,
            "§9",
            _bands((0, _LIGHT_ATTACK, 2)),
            screens=True,
            reroll=True,
            light_unit=True,
        ),
        # ---- §9 gunboats (per craft) ----
        Weapon(
            "gunboat-pd",
            "Gunboat: PD platform",
            Family.BEAM,
            "§9",
            _bands((0, 6, 2), (7, 12, 1)),
            screens=True,
            reroll=True,
            light_unit=True,
        ),
        Weapon(
            "gunboat-mpc",
            "Gunboat: MPC (Kra'vak)",
            Family.BEAM,
            "§9",
            _bands((0, 12, 1)),
            damage_type=_X,
            reroll=False,
            damage_per_hit=4,
            light_unit=True,
            note="MPC: 1d6 per craft to 12 mu (seed: « La portée de l'arme est de 12mu »), "
            "1–3 none / 4–5 1 hit / 6 2 hits, no re-roll (D-14), 4 damage per hit, armour "
            "counts 1 (piercing)",
        ),
        Weapon(
            "gunboat-assault",
            "Gunboat: assault",
            Family.BEAM,
            "§9",
            _bands((0, _LIGHT_ATTACK, 2)),
            screens=True,
            reroll=True,
            light_unit=True,
        ),
        Weapon(
            "gunboat-transport",
            "Gunboat: transport",
            Family.BEAM,
            "§9",
            _bands((0, _LIGHT_ATTACK, 1)),
            screens=True,
            reroll=True,
            light_unit=True,
            note="lands one marine squad (boarding, phase 11)",
        ),
        Weapon(
            "gunboat-heavy-transport",
            "Gunboat: heavy transport (Norway)",
            Family.BEAM,
            "§9",
            _bands((0, 12, 2)),
            screens=True,
            reroll=True,
            light_unit=True,
            note="class-2 beam battery ≤12 mu; lands one squad of Norwegian fusiliers",
        ),
        Weapon(
            "gunboat-emp",
            "Gunboat: EMP launcher (Norway)",
            Family.BEAM,
            "§9",
            _bands((0, 12, 1)),
            damage_type=None,
            effect=Effect.SYSTEM_CHECK,
            screens=False,
            reroll=False,
            light_unit=True,
            note="1d6 per craft ≤12 mu (seed: « Dégâts : 1d6 »), 1–3 none / 4–5 1 hit / 6 2 "
            "hits, no screens, no re-roll; each hit is a system check at 4+ (D-18), no armour "
            "or hull loss. A craft carries two projectors that may each pick a target; here "
            "one squadron attacks one target",
        ),
        # ---- project readings (named by the seed without a profile, §14, §17) ----
        Weapon(
            "plasma-bolt",
            "Plasma bolt",
            Family.TO_HIT,
            "§17",
            _TORPEDO_BANDS,
            damage_type=_S,
            damage_dice=1,
            provisional=True,
            note="project reading: a plasma torpedo without magazine",
        ),
    ]
    return {x.id: x for x in w}


CATALOGUE: dict[str, Weapon] = _fixed_catalogue()

#: Accepted spellings that map onto catalogue ids (squadron ``unit`` words in designs).
ALIASES: dict[str, str] = {
    "interceptor": "fighter-interceptor",
    "interceptor-fighter": "fighter-interceptor",
    "heavy-fighter": "fighter-heavy",
    "long-range-fighter": "fighter-long-range",
    "fighter": "fighter-interceptor",
}

_KGUN = re.compile(r"^kgun-(?:(hv|lv)-)?([1-6])$")  # FB2 classes 1–6, as construction.py
_GRASER = re.compile(r"^graser-([1-3])$")
# §8: kinetic bands are five equal bands; width by velocity.
_KGUN_WIDTH = {None: 6, "hv": 9, "lv": 4}
_KGUN_NAME = {
    None: "Kinetic gun",
    "hv": "High-velocity kinetic gun",
    "lv": "Low-velocity kinetic gun",
}


@lru_cache(maxsize=256)
def _parametrised(weapon_id: str) -> Weapon | None:
    m = _KGUN.match(weapon_id)
    if m:
        velocity, c = m.group(1), int(m.group(2))
        width = _KGUN_WIDTH[velocity]
        bands = tuple(
            Band(0 if i == 0 else width * i + 1, width * (i + 1), to_hit=2 + i) for i in range(5)
        )
        return Weapon(
            weapon_id,
            f"{_KGUN_NAME[velocity]} class {c} (Kra'vak)",
            Family.KINETIC,
            "§8",
            bands,
            damage_type=_X,
            reroll=True,
            kinetic_class=c,
            pd_threshold=5 if c == 1 else None,
        )
    m = _GRASER.match(weapon_id)
    if m:
        c = int(m.group(1))
        base = CATALOGUE[f"beam-{c}"]
        return Weapon(
            weapon_id,
            f"Graser class {c}",
            Family.BEAM,
            "§17",
            base.bands,
            screens=False,
            reroll=True,
            provisional=True,
            note="project reading: the dice of a beam of the same class, ignoring screens",
        )
    return None


def get_weapon(weapon_id: str) -> Weapon:
    """The catalogue entry for ``weapon_id`` (or an alias); raises :class:`UnknownWeapon`,
    or :class:`BadArgument` for an id that is not text."""
    if not isinstance(weapon_id, str):
        raise BadArgument(f"weapon id must be text, got {weapon_id!r} (§8–10)")
    weapon_id = ALIASES.get(weapon_id, weapon_id)
    found = CATALOGUE.get(weapon_id) or _parametrised(weapon_id)
    if found is None:
        raise UnknownWeapon(
            f"unknown weapon id {weapon_id!r}: not in the catalogue of rules §8–10 "
            "(see battles.rules.weapons.weapon_ids())"
        )
    return found


def is_weapon_id(weapon_id: str) -> bool:
    """True when :func:`get_weapon` accepts ``weapon_id``."""
    try:
        get_weapon(weapon_id)
    except UnknownWeapon:
        return False
    return True


def weapon_ids() -> list[str]:
    """Every fixed catalogue id plus the classes 1–4 of parametrised families (for listings)."""
    extra = [f"kgun-{c}" for c in range(1, 5)]
    extra += [f"kgun-hv-{c}" for c in range(1, 5)] + [f"kgun-lv-{c}" for c in range(1, 5)]
    extra += [f"graser-{c}" for c in range(1, 4)]
    return sorted(CATALOGUE) + extra


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
