"""The weapon catalogue as data (rules §8–§10).

Every weapon is a :class:`Weapon` of one :class:`Family`; ``battles.rules.weapons.fire``
has one resolution path per family, driven by these fields. Weapon ids
are stable strings (stored in designs and logs). Parametrised ids — ``kgun-<c>``, ``kgun-hv-<c>``,
``kgun-lv-<c>``, ``graser-<c>`` — are built on demand by :func:`get_weapon`.

Project readings beyond the seed are flagged ``provisional=True`` with a ``note``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from battles.rules.errors import BadArgument, OutOfRange, RulesError, UnknownWeapon

__all__ = [
    "ALIASES",
    "Band",
    "CATALOGUE",
    "DamageType",
    "Effect",
    "Family",
    "Weapon",
    "get_weapon",
    "is_weapon_id",
    "weapon_ids",
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


def get_weapon(weapon_id: object) -> Weapon:
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
