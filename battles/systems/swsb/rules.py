"""Star Wars Starship Battles house rules: screens, fire order, ranges, formations, the d20
critical table and repairs, with exact attack odds.

Source: seed 002; the other-systems restatement §B with reading
O-2 (range penalties counted beyond the effective range). Readings of this module
(``battles/systems/readings.md``):

- H-10 a started band counts: squares 7–9 past a 6-square weapon are −1 to attack, 10–12
  −2; damage −1 for squares 1–6 beyond, −2 for 7–12 (otherwise a shot at 7–8 squares would
  be "long range" with no penalty at all). Longest range accepted: 60 squares.
- H-11 the base game's convention: a natural 20 always hits (and is the critical), a
  natural 1 always misses.
- H-12 a critical must get through: it counts only when the hit's damage exceeds the screen
  left on that facing; its extra or doubled damage is then added to the attack before the
  screen absorbs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from battles.systems.swsb.errors import BadScreenSplit, RangeError, StarshipBattlesError

__all__ = [
    "CRITICAL_TABLE",
    "FACINGS",
    "FIRE_RANKS",
    "MAX_RANGE",
    "AttackOdds",
    "attack_odds",
    "critical_effect",
    "escort_target",
    "fire_order",
    "formation_fits",
    "hunting_bonus",
    "navigation_move",
    "range_penalties",
    "split_screens",
]

FACINGS: tuple[str, ...] = ("front", "rear", "left", "right")
#: Fire order by rank (seed, "Ordre de tir").
FIRE_RANKS: tuple[str, ...] = (
    "pd",
    "class-3",
    "interceptor",
    "fighter",
    "bomber",
    "class-2",
    "class-1",
)
MAX_RANGE = 60


def _int(
    value: object,
    field: str,
    lo: int,
    hi: int,
    error: type[StarshipBattlesError] = StarshipBattlesError,
) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{field}: {value!r} is not a whole number ({lo}–{hi})")
    if not lo <= value <= hi:
        raise error(f"{field}: {value} is out of range ({lo}–{hi})")
    return value


def split_screens(screen_value: object, split: object) -> dict[str, int]:
    """Check a player's split of the screen value over facings (seed, "les écrans des
    vaisseaux": it must be spread over one or more facings). ``split`` maps facings to points
    and must add up to ``screen_value`` exactly; missing facings get 0.
    Raises :class:`BadScreenSplit` naming the facing or the total."""
    value = _int(screen_value, "screen_value", 0, 100, BadScreenSplit)
    if not isinstance(split, dict):
        raise BadScreenSplit("screens: expected points per facing (front, rear, left, right)")
    out = dict.fromkeys(FACINGS, 0)
    for facing, points in split.items():
        if facing not in FACINGS:
            raise BadScreenSplit(f"screens: {facing!r} is not a facing ({', '.join(FACINGS)})")
        out[facing] = _int(points, f"screens.{facing}", 0, 100, BadScreenSplit)
    if sum(out.values()) != value:
        raise BadScreenSplit(
            f"screens: the split adds up to {sum(out.values())}, the screen value is {value}"
        )
    return out


def range_penalties(range_squares: object, *, weapon: object = "standard") -> tuple[int, int]:
    """(attack penalty, damage penalty) at ``range_squares`` (seed, "les portées des armes";
    O-2, H-10). ``weapon``: ``standard`` (6 squares), ``turbolaser`` (9), ``torpedo`` or
    ``missile`` (class 4, 3 squares, no long range: beyond raises :class:`RangeError`)."""
    r = _int(range_squares, "range", 0, MAX_RANGE, RangeError)
    if weapon in ("torpedo", "missile"):
        if r > 3:
            raise RangeError(f"range: {r} squares is beyond a {weapon}'s 3 squares")
        return 0, 0
    if weapon not in ("standard", "turbolaser"):
        raise StarshipBattlesError(
            f"weapon: {weapon!r} is not standard, turbolaser, torpedo or missile"
        )
    beyond = r - (9 if weapon == "turbolaser" else 6)
    if beyond <= 0:
        return 0, 0
    return -math.ceil(beyond / 3), -math.ceil(beyond / 6)


#: d20 critical table (seed, "Tir Critique"): (top face, effect id, extra damage, doubles).
CRITICAL_TABLE: tuple[tuple[int, str], ...] = (
    (3, "damage+1"),
    (6, "damage+2"),
    (9, "damage+3"),
    (11, "damage-doubled"),
    (12, "navigation-damaged"),
    (13, "shield-generator-damaged"),
    (14, "shield-generator-destroyed"),
    (15, "weapon-system-damaged"),
    (16, "bridge-damaged"),
    (17, "engine-damaged"),
    (18, "engine-destroyed"),
    (19, "fire"),
    (20, "disastrous-fire"),
)
#: Effects that last (a ship's state) as opposed to extra damage on the attack.
LASTING_EFFECTS: tuple[str, ...] = tuple(e for _, e in CRITICAL_TABLE[4:])


def critical_effect(face: object) -> str:
    """The critical table's effect for a d20 ``face`` (1–20)."""
    face = _int(face, "face", 1, 20)
    return next(effect for top, effect in CRITICAL_TABLE if face <= top)


def critical_damage(effect: str, damage: int) -> int:
    """An attack's damage after a critical ``effect`` (rows 1–11); unchanged otherwise."""
    if effect == "damage-doubled":
        return damage * 2
    if effect.startswith("damage+"):
        return damage + int(effect[-1])
    return damage


def navigation_move(face: object) -> str:
    """A navigation-damaged ship's move for its d20 (seed, row 12): 1–5 ``turn-right``,
    6–10 ``turn-left``, 11–15 ``straight-full-speed``, 16–20 ``free``."""
    face = _int(face, "face", 1, 20)
    return (
        "turn-right"
        if face <= 5
        else "turn-left"
        if face <= 10
        else "straight-full-speed"
        if face <= 15
        else "free"
    )


def fire_order(units: object, *, initiative: object) -> list[tuple[str, str, list[str]]]:
    """Fire steps: for each rank of :data:`FIRE_RANKS`, the initiative winner's units of that
    rank, then the other side's (seed, "Ordre de tir"). ``units``: ``(side, unit id, rank)``
    triples; returns ``(rank, side, unit ids)`` for each step that has units."""
    if not isinstance(units, list | tuple):
        raise StarshipBattlesError("units: expected a list of (side, unit, rank)")
    sides: list[str] = []
    steps: dict[tuple[str, str], list[str]] = {}
    for item in units:
        if not isinstance(item, list | tuple) or len(item) != 3:
            raise StarshipBattlesError(f"units: {item!r} is not (side, unit, rank)")
        side, unit, rank = (str(x) for x in item)
        if rank not in FIRE_RANKS:
            raise StarshipBattlesError(
                f"units: rank {rank!r} of {unit} is not one of {', '.join(FIRE_RANKS)}"
            )
        if side not in sides:
            sides.append(side)
        steps.setdefault((rank, side), []).append(unit)
    if initiative not in sides and sides:
        raise StarshipBattlesError(f"initiative: {initiative!r} is not a side in the battle")
    first = str(initiative)
    ordered = [first] + [s for s in sides if s != first] if sides else []
    return [
        (rank, side, steps[(rank, side)])
        for rank in FIRE_RANKS
        for side in ordered
        if (rank, side) in steps
    ]


def formation_fits(class4_units: object) -> bool:
    """Up to two class-4 units share a square (seed, "les formations")."""
    return _int(class4_units, "class4_units", 0, 100) <= 2


def hunting_bonus(pair: object) -> int:
    """+1 attack for the leader of two strictly identical fighters on one square (seed,
    "Mission de chasse"); ``pair`` is the two fighters' type names; 0 otherwise."""
    if not isinstance(pair, list | tuple) or len(pair) != 2:
        return 0
    return 1 if pair[0] == pair[1] else 0


def escort_target(
    *,
    attackers_have_interceptors: bool,
    escort_has_interceptors: bool,
    defender_choice: str = "bomber",
) -> str:
    """Who takes the first attack on an escort mission (a fighter on a bomber's square):
    ``escort`` normally; ``attacker-choice`` when attacking interceptors outclass the escort;
    with defending interceptors the defender may put them in front (``defender_choice``);
    interceptors on both sides cancel out (seed, "Notion d'Interceptor")."""
    if attackers_have_interceptors and escort_has_interceptors:
        return "escort"
    if attackers_have_interceptors:
        return "attacker-choice"
    if escort_has_interceptors:
        return "interceptor" if defender_choice == "interceptor" else "escort"
    return "escort"


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """Exact odds of one attack: P(hit), P(natural 20), P(a critical that gets through the
    screen) and damage through the screen on a plain hit and on average over critical rows."""

    hit: Fraction
    critical: Fraction
    critical_through: Fraction
    attack_penalty: int
    damage_penalty: int
    damage_on_hit: int
    damage_through: int
    mean_damage_through: Fraction
    starfighter_destroyed: Fraction


def attack_odds(
    *,
    attack: object,
    defence: object,
    damage: object,
    range_squares: object = 0,
    weapon: object = "standard",
    screen: object = 0,
    modifier: object = 0,
    target_is_starfighter: bool = False,
) -> AttackOdds:
    """Exact odds of a d20 attack (``attack`` bonus + ``modifier`` + range penalty against
    ``defence``), ``damage`` less the range damage penalty, against ``screen`` points left on
    the facing (H-11, H-12). A starfighter hit by a natural 20 is destroyed (seed)."""
    atk = _int(attack, "attack", -50, 100)
    dfn = _int(defence, "defence", 0, 100)
    dmg = _int(damage, "damage", 0, 1000)
    scr = _int(screen, "screen", 0, 100)
    mod = _int(modifier, "modifier", -50, 50)
    ap, dp = range_penalties(range_squares, weapon=weapon)
    total = atk + mod + ap
    hits = sum(1 for f in range(1, 21) if f == 20 or (f != 1 and f + total >= dfn))
    p_hit = Fraction(hits, 20)
    on_hit = max(0, dmg + dp)
    through = max(0, on_hit - scr)
    crit_through = Fraction(1, 20) if through > 0 else Fraction(0)
    # Mean over the hit's outcomes: non-20 hits give ``through``; a 20 rolls the table.
    crit_mean = sum(
        (
            Fraction(max(0, critical_damage(critical_effect(f), on_hit) - scr), 20)
            for f in range(1, 21)
        ),
        Fraction(0),
    )
    mean = Fraction(hits - 1, 20) * through + Fraction(1, 20) * (
        crit_mean if through > 0 else through
    )
    return AttackOdds(
        hit=p_hit,
        critical=Fraction(1, 20),
        critical_through=crit_through,
        attack_penalty=ap,
        damage_penalty=dp,
        damage_on_hit=on_hit,
        damage_through=through,
        mean_damage_through=mean,
        starfighter_destroyed=Fraction(1, 20) if target_is_starfighter else Fraction(0),
    )
