"""Resolvers of the Epic-scale special abilities, with exact odds where dice decide.

Source: seed 004; the other-systems restatement §D and O-4 (AP is a
save modifier: "PA 1" or more is armour piercing, "PA 0" and "positive PA" are not).
Readings of this module (``battles/systems/readings.md``):

- H-14 a d6 roll needing 7+ is a 6 then 4+ on a second die (8+: 6 then 5+, 9+: 6 then 6),
  the usual convention of the game family; close defence's interception 7+ is then 1/12.
- H-15 AP ``X`` worsens a save by X (4+ at AP 1 is 5+); a save worse than 6+ fails.
- H-16 "dans un rayon de 12 cm" (charismatic, leadership) includes 12 cm; "à moins de 12 cm"
  (elite aura) does not.

Every resolver takes keyword arguments, checks them (:class:`AbilityError` names the field)
and returns plain values or records. ``RESOLVERS`` maps ability ids to them for the API.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from fractions import Fraction
from math import comb

from battles.rules.dice import Dice
from battles.systems.epic.data import get_ability
from battles.systems.epic.errors import AbilityError, TransportFull

__all__ = [
    "RESOLVERS",
    "armour_breaker_save",
    "aura_applies",
    "binomial",
    "bound_characters",
    "camouflage_visibility",
    "close_defence",
    "cover_penalty",
    "d6_success",
    "elite_reroll",
    "energy_shields",
    "energy_shields_odds",
    "flyer_shot",
    "forward_observer",
    "hq_sacrifice",
    "psychic_save",
    "regenerate_shields",
    "resolve",
    "structure_damage",
    "transport_load",
]

MAX_DICE = 300  # like the core odds endpoint (battles/rules/odds.py MAX_REQUEST_DICE)
Dist = dict[int, Fraction]


def _int(value: object, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise AbilityError(f"{field}: {value!r} is not a whole number ({lo}–{hi})")
    if not lo <= value <= hi:
        raise AbilityError(f"{field}: {value} is out of range ({lo}–{hi})")
    return value


def _bool(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise AbilityError(f"{field}: {value!r} is not true or false")
    return value


def _num(value: object, field: str, hi: float = 1000) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise AbilityError(f"{field}: {value!r} is not a distance in cm")
    if not 0 <= value <= hi:
        raise AbilityError(f"{field}: {value} is out of range (0–{hi})")
    return Fraction(value)


def d6_success(target: object) -> Fraction:
    """P(a d6 roll makes ``target``+) — 2+ … 6+ as usual, 7+ … 9+ by H-14, 10+ never."""
    t = _int(target, "target", 1, 12)
    if t <= 6:
        return Fraction(min(6, 7 - t), 6)
    return Fraction(1, 6) * Fraction(max(0, 10 - t), 6) if t <= 9 else Fraction(0)


def binomial(n: int, p: Fraction) -> Dist:
    """Exact distribution of successes of ``n`` independent trials of probability ``p``."""
    return {
        k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1) if p**k * (1 - p) ** (n - k)
    }


@dataclass(frozen=True, slots=True)
class ShieldResult:
    """Hits on a base with energy shields, in order: shields destroyed and left, and the AP
    of each hit that reached the base."""

    shields_left: int
    shields_destroyed: int
    hits_on_base: tuple[int, ...]


def energy_shields(*, shields: object, hits: object) -> ShieldResult:
    """Apply ``hits`` (their AP values, in order) to a base with ``shields`` active shields:
    AP ≥ 1 destroys a shield instead of a hit; AP ≤ 0 does nothing while one stands; once
    none stands, hits reach the base (seed, "Boucliers Énergétiques")."""
    left = _int(shields, "shields", 0, 20)
    if not isinstance(hits, list | tuple) or len(hits) > MAX_DICE:
        raise AbilityError(f"hits: expected a list of at most {MAX_DICE} AP values")
    through: list[int] = []
    destroyed = 0
    for i, ap in enumerate(hits):
        ap = _int(ap, f"hits[{i}]", -6, 6)
        if left and ap >= 1:
            left -= 1
            destroyed += 1
        elif not left:
            through.append(ap)
    return ShieldResult(left, destroyed, tuple(through))


def energy_shields_odds(
    *, shields: object, shots: object, to_hit: object = 4, ap: object = 1
) -> dict[str, object]:
    """Exact odds of ``shots`` shots hitting on ``to_hit``+ (one AP value) against a base
    with ``shields`` shields: distributions of hits reaching the base and of shields left,
    and P(the 4+ psychic save still applies)."""
    n = _int(shots, "shots", 0, MAX_DICE)
    s = _int(shields, "shields", 0, 20)
    a = _int(ap, "ap", -6, 6)
    hits = binomial(n, d6_success(to_hit))
    on_base: Dist = {}
    left: Dist = {}
    for h, p in hits.items():
        through = max(0, h - s) if a >= 1 else (h if s == 0 else 0)
        remain = max(0, s - h) if a >= 1 else s
        on_base[through] = on_base.get(through, Fraction(0)) + p
        left[remain] = left.get(remain, Fraction(0)) + p
    return {
        "hits_on_base": dict(sorted(on_base.items())),
        "shields_left": dict(sorted(left.items())),
        "psychic_save_4plus": sum((p for k, p in left.items() if k), Fraction(0)),
    }


def regenerate_shields(dice: Dice, *, destroyed: object) -> int:
    """End phase: one d6 per destroyed shield, each 4+ repairs one (seed); logged."""
    n = _int(destroyed, "destroyed", 0, 20)
    return sum(1 for f in dice.roll(n, "energy shield repair") if f >= 4)


def psychic_save(*, save: object) -> Fraction:
    """P(an X+ psychic save succeeds) against an ethereal psychic attack."""
    return d6_success(_int(save, "save", 2, 6))


@dataclass(frozen=True, slots=True)
class Visibility:
    """``state``: ``visible``, ``hidden`` or ``roll`` (4+ to see it); ``p_visible`` exact."""

    state: str
    p_visible: Fraction


def camouflage_visibility(
    *,
    distance_cm: object,
    penalty_terrain: object,
    fired_this_turn: object = False,
    in_assault: object = False,
) -> Visibility:
    """Can a shooter ``distance_cm`` away target a camouflaged base? (seed, "Camouflage")."""
    d = _num(distance_cm, "distance_cm")
    terrain = _bool(penalty_terrain, "penalty_terrain")
    fired = _bool(fired_this_turn, "fired_this_turn")
    if _bool(in_assault, "in_assault") or not terrain or d <= 25:
        return Visibility("visible", Fraction(1))
    return Visibility("roll", Fraction(1, 2)) if fired else Visibility("hidden", Fraction(0))


def close_defence(
    *, dr: object, mode: object = "interception", target_class: object = 1
) -> dict[str, object]:
    """``dr`` close-defence shots (AP 0, 15 cm, 360°): 7+ in interception, 6+ in
    counter-charge; none against class 3+. Returns to-hit, P(one hit) and the exact
    distribution of hits."""
    n = _int(dr, "dr", 0, 50)
    if mode not in ("interception", "counter-charge"):
        raise AbilityError(f"mode: {mode!r} is not interception or counter-charge")
    if _int(target_class, "target_class", 1, 6) >= 3:
        return {"to_hit": None, "p_hit": Fraction(0), "hits": {0: Fraction(1)}}
    target = 7 if mode == "interception" else 6
    p = d6_success(target)
    return {"to_hit": target, "p_hit": p, "hits": binomial(n, p)}


def elite_reroll(*, dice: object, target: object) -> dict[str, object]:
    """Successes of ``dice`` d6 at ``target``+ when one failed die may be re-rolled (seed,
    "Elite": one die per roll). Exact distribution and mean, with and without the re-roll."""
    n = _int(dice, "dice", 1, MAX_DICE)
    p = d6_success(target)
    plain = binomial(n, p)
    out: Dist = {}
    for k, q in plain.items():
        if k < n:
            out[k] = out.get(k, Fraction(0)) + q * (1 - p)
            out[k + 1] = out.get(k + 1, Fraction(0)) + q * p
        else:
            out[k] = out.get(k, Fraction(0)) + q
    out = {k: v for k, v in sorted(out.items()) if v}
    return {
        "with_reroll": out,
        "without": plain,
        "mean_with": sum((k * v for k, v in out.items()), Fraction(0)),
        "mean_without": n * p,
    }


def _save(save: int, ap: int) -> Fraction:
    """P(a ``save``+ save at AP ``ap`` succeeds) (H-15)."""
    target = save + ap
    return Fraction(0) if target > 6 else d6_success(max(2, target))


def structure_damage(*, save: object, ap: object) -> Fraction:
    """P(a building loses a structure point): it fails a ``save``+ save at AP ``ap``."""
    return 1 - _save(_int(save, "save", 2, 7), _int(ap, "ap", 0, 6))


def armour_breaker_save(*, save: object, ap: object = 0) -> Fraction:
    """P(a ``save``+ standard save survives an armour-breaker hit): a save of 4+ or better
    must succeed twice (successful saves are re-rolled, seed)."""
    s = _int(save, "save", 2, 7)
    p = _save(s, _int(ap, "ap", 0, 6))
    return p * p if s <= 4 else p


def cover_penalty(
    *, penalty: object, ignores_cover: object = False, reduces_cover: object = False
) -> int:
    """The cover to-hit penalty that applies (a positive number): 0 when the weapon ignores
    cover, one less (minimum 0) when it reduces cover."""
    pen = _int(penalty, "penalty", 0, 6)
    if _bool(ignores_cover, "ignores_cover"):
        return 0
    return max(0, pen - 1) if _bool(reduces_cover, "reduces_cover") else pen


def aura_applies(*, ability: object, distance_cm: object, detachment_class: object = 1) -> bool:
    """Does ``ability`` (``charismatic`` +1 morale, ``leadership`` +1 FA, ``elite-aura``)
    reach a friendly detachment whose nearest base is ``distance_cm`` away? (H-16)."""
    d = _num(distance_cm, "distance_cm")
    cls = _int(detachment_class, "detachment_class", 1, 6)
    if ability == "charismatic":
        return d <= 12
    if ability == "leadership":
        return d <= 12 and cls < 5
    if ability == "elite-aura":
        return d < 12 and cls <= 2
    raise AbilityError(f"ability: {ability!r} is not charismatic, leadership or elite-aura")


def transport_load(
    *, capacity: object, infantry: object = 0, walkers: object = 0, characters: object = 0
) -> int:
    """Places used in a transport of ``capacity`` (seed, "Transport (X)"): infantry bases 1
    each; walkers 2 each, only in capacity 6+; one character rides free in capacity 6+ (the
    others take a place). Raises :class:`TransportFull` when over capacity."""
    cap = _int(capacity, "capacity", 1, 50)
    inf = _int(infantry, "infantry", 0, 100)
    walk = _int(walkers, "walkers", 0, 50)
    chars = _int(characters, "characters", 0, 20)
    if walk and cap < 6:
        raise AbilityError(f"walkers: a transport of capacity {cap} cannot carry walkers (6+)")
    used = inf + 2 * walk + (max(0, chars - 1) if cap >= 6 else chars)
    if used > cap:
        raise TransportFull(f"capacity: {used} places needed, the transport has {cap}")
    return used


def embark_costs(
    *,
    embarking: object = 0,
    disembarking: object = 0,
    flying_or_class4: object = False,
    supporting_fire: object = False,
) -> dict[str, int]:
    """Movement lost (cm): each base 5 to embark and 5 to disembark; the transport 5 if any
    embark and 5 if any disembark this turn, none when it flies or is class 4+; bases on
    supporting fire cannot do either (seed)."""
    emb = _int(embarking, "embarking", 0, 50)
    dis = _int(disembarking, "disembarking", 0, 50)
    if _bool(supporting_fire, "supporting_fire") and (emb or dis):
        raise AbilityError("supporting_fire: bases on supporting fire cannot embark or disembark")
    free = _bool(flying_or_class4, "flying_or_class4")
    return {
        "per_embarking_base": 5 if emb else 0,
        "per_disembarking_base": 5 if dis else 0,
        "transport": 0 if free else 5 * bool(emb) + 5 * bool(dis),
    }


ALTITUDES = ("ground", "low", "high")


def flyer_shot(
    *,
    distance_cm: object,
    shooter_altitude: object = "ground",
    target_altitude: object = "low",
    aa: object = False,
    supporting_fire_360: object = False,
    titan: object = False,
    landing: object = False,
) -> dict[str, object]:
    """A shot involving flyers: may it be taken, at what distance (+25 cm when exactly one
    of the two is at high altitude), with what to-hit modifier (−1 for non-AA weapons
    against a flyer in the air; −1 more, even for AA, while it lands evading)."""
    d = _num(distance_cm, "distance_cm")
    for name, alt in (("shooter_altitude", shooter_altitude), ("target_altitude", target_altitude)):
        if alt not in ALTITUDES:
            raise AbilityError(f"{name}: {alt!r} is not one of {', '.join(ALTITUDES)}")
    is_aa = _bool(aa, "aa")
    airborne = target_altitude in ("low", "high")
    allowed = (
        not airborne
        or is_aa
        or _bool(supporting_fire_360, "supporting_fire_360")
        or _bool(titan, "titan")
    )
    extra = 25 if (shooter_altitude == "high") != (target_altitude == "high") else 0
    modifier = (-1 if airborne and not is_aa else 0) + (-1 if _bool(landing, "landing") else 0)
    return {"allowed": allowed, "distance_cm": d + extra, "to_hit_modifier": modifier}


def forward_observer(
    *, artillery_shots: object = 3, off_table_shots: object = 0
) -> dict[str, object]:
    """What one forward observer directs this turn: 3 artillery shots, or 2 and one
    off-table shot (3+ to happen, 2D6 cm scatter); a directed indirect barrage scatters 1D6
    cm (seed). Returns the odds and the exact scatter distributions."""
    art = _int(artillery_shots, "artillery_shots", 0, 3)
    off = _int(off_table_shots, "off_table_shots", 0, 1)
    if art + off > 3:
        raise AbilityError("off_table_shots: 3 artillery shots, or 2 and one off-table shot")
    two_d6 = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
    return {
        "p_off_table_happens": d6_success(3),
        "scatter_directed_cm": {t: Fraction(1, 6) for t in range(1, 7)},
        "scatter_off_table_cm": two_d6,
        "scatter_undirected_cm": two_d6,
    }


def hq_sacrifice(*, in_assault: object, same_class: object, distance_cm: object) -> bool:
    """May an HQ that failed its save sacrifice another base instead? Same blocking class,
    within 6 cm, not in assault (seed, "QG")."""
    return (
        not _bool(in_assault, "in_assault")
        and _bool(same_class, "same_class")
        and _num(distance_cm, "distance_cm") <= 6
    )


def bound_characters(
    *, count: object, character_class: object = 1, detachment_class: object = 1
) -> bool:
    """May ``count`` bound characters of ``character_class`` join a detachment? At most 2;
    class 2+ characters only a detachment of the same class (seed, "Personnages Liés")."""
    n = _int(count, "count", 0, 10)
    cc = _int(character_class, "character_class", 1, 6)
    dc = _int(detachment_class, "detachment_class", 1, 6)
    if n > 2:
        raise AbilityError(f"count: {n} bound characters, at most 2 per detachment")
    if cc >= 2 and cc != dc:
        raise AbilityError(f"detachment_class: a class {cc} bound character joins class {cc} only")
    return True


RESOLVERS: dict[str, Callable[..., object]] = {
    "energy_shields": energy_shields_odds,
    "camouflage_visibility": camouflage_visibility,
    "aura_applies": aura_applies,
    "close_defence": close_defence,
    "elite_reroll": elite_reroll,
    "structure_damage": structure_damage,
    "armour_breaker_save": armour_breaker_save,
    "cover_penalty": cover_penalty,
    "forward_observer": forward_observer,
    "bound_characters": bound_characters,
    "hq_sacrifice": hq_sacrifice,
    "psychic_save": psychic_save,
    "transport_load": transport_load,
    "flyer_shot": flyer_shot,
}


def _plain(value: object) -> object:
    """Fractions as ``"n/d"`` strings, records as dicts, recursively (JSON-ready)."""
    if isinstance(value, Fraction):
        return (
            f"{value.numerator}/{value.denominator}"
            if value.denominator != 1
            else str(value.numerator)
        )
    if isinstance(value, ShieldResult | Visibility):
        return _plain(asdict(value))
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def resolve(ability_id: object, params: object) -> object:
    """Run the resolver of ``ability_id`` with ``params`` (a mapping); the answer is
    JSON-ready (fractions as strings). Unknown abilities, abilities without a resolver and
    unknown or missing parameters raise :class:`AbilityError` naming them."""
    ability = get_ability(ability_id)
    if not ability.resolver:
        raise AbilityError(f"ability: {ability.id} changes no number; nothing to resolve")
    if not isinstance(params, dict):
        raise AbilityError("params: expected an object")
    func = RESOLVERS[ability.resolver]
    if ability.resolver == "aura_applies":
        params = {**params, "ability": ability.id}
    if ability.resolver == "cover_penalty":
        params = {**params, ability.id.replace("-", "_"): True}
    accepted = set(func.__code__.co_varnames[: func.__code__.co_kwonlyargcount])
    unknown = sorted(set(params) - accepted)
    if unknown:
        raise AbilityError(
            f"params: unknown {', '.join(unknown)} (takes {', '.join(sorted(accepted))})"
        )
    try:
        return _plain(func(**params))
    except TypeError as exc:  # a missing keyword
        raise AbilityError(f"params: {exc}") from None
