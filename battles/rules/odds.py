"""Exact odds: the distribution of a weapon's ``value`` as ``fractions.Fraction``.

Source: rules §7 (E = p + E/6), §8–§10; the resolution paths in
``weapons.fire``, whose rules these formulas mirror (the Monte-Carlo tests compare both).

How re-roll chains are summed (documented choice):

- **Means are exact, summed to the limit.** A chained die is ``X = t(face) + [face = 6]·X'``,
  so ``E[X] = Σt/6 + E[X]/6``, i.e. the geometric series ``E[X] = Σt / 5``. Beam dice give
  4/5, 3/5, 2/5, 1/5 against screens 0–3.
- **Each listed probability is exact.** ``P(X = k) = a(k) + P(X = k − t(6)) / 6`` with
  ``t(6) ≥ 1`` is a finite recursion for every k, so ``P(value = k)`` for any k is an exact
  Fraction (convolutions keep exactness for every value up to the cut).
- **The listing stops** at a cap ``K`` (first guess ten standard deviations above the
  mean, raised by half until it suffices) where the remaining probability (``tail``,
  exact: ``1 − Σ_{k ≤ K} P(k)``) is below ``TAIL_LIMIT`` (10⁻¹²). Nothing is dropped
  silently: ``tail`` is reported with the distribution. Weapons without a re-roll chain
  list their whole support and have ``tail == 0``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from battles.rules.dice import Dice
from battles.rules.distributions import (
    _SIXTH,
    Dist,
    _chain,
    _chain_mean,
    _mix,
    _nd6_sum,
    _power,
    _scale,
    _shift,
)
from battles.rules.errors import BadArgument, RulesError
from battles.rules.options import DEFAULT_OPTIONS, RuleOptions
from battles.rules.tables import BEAM_TABLE, PD_GUNBOAT_MODIFIER, PD_TABLE
from battles.rules.weapons import (
    LIGHT_UNIT_TARGETS,
    TARGET_KINDS,
    Effect,
    Family,
    Weapon,
    _check_volley_arguments,
    apply_options,
    area_loss,
    best_mode,
    default_target,
    fire,
    get_weapon,
    kinetic_reroll_add,
    reroll_allowed,
)

__all__ = [
    "MAX_REQUEST_COUNT",
    "MAX_REQUEST_DICE",
    "TAIL_LIMIT",
    "Odds",
    "die_mean",
    "mean_value",
    "odds",
]

#: Most dice one odds request (``GET /api/rules/odds``, ``manage.py odds``) may roll:
#: the work of an exact distribution grows with the dice summed, not with any one
#: parameter. Measured on the project machine (2 cores, Python 3.11), one call of
#: ``odds()`` at this limit: beam-1 ×100 at 0 mu (300 dice) 0.32–0.44 s, needle nodule
#: 300 PP 0.52 s, pulser-short ×50 0.28 s, missile-heavy ×75 0.57 s, missile-standard
#: ×100 0.55 s, mpc ×300 0.44 s, kgun-1 ×300 0.32 s, kgun-6 ×50 0.08 s; before the
#: limit 600 beam dice took 3.6 s and 25,600 over 120 s. How dice are counted:
#: ``_volley_dice``.
MAX_REQUEST_DICE = 300
#: Most identical weapons one odds request may fire.
MAX_REQUEST_COUNT = 100

#: Stop listing values once the probability left beyond them is below this.
TAIL_LIMIT = Fraction(1, 10**12)


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact odds of one volley.

    ``distribution``: value → probability for ``0..K`` (values with probability 0 omitted);
    ``tail``: exact probability of a value above ``K``; ``mean``: exact expected value.
    ``value_kind``: ``"damage"``, ``"hits"``, ``"systems"`` or ``"kills"``.
    ``weapon`` and ``screen`` echo the request; ``resolved_as`` is the catalogue entry used
    (a pulser's mode); ``screens_apply`` says whether the screen level changed the odds.
    """

    weapon: str
    range_mu: float
    screen: int
    resolved_as: str
    screens_apply: bool
    target: str
    dice: int
    value_kind: str
    mean: Fraction
    distribution: dict[int, Fraction]
    tail: Fraction

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form used by the API and the ``odds`` command."""
        return {
            "weapon": self.weapon,
            "range": self.range_mu,
            "screen": self.screen,
            "resolved_as": self.resolved_as,
            "screens_apply": self.screens_apply,
            "target": self.target,
            "dice": self.dice,
            "value_kind": self.value_kind,
            "mean": str(self.mean),
            "mean_float": float(self.mean),
            "distribution": [
                {"value": k, "p": str(p), "p_float": float(p)}
                for k, p in sorted(self.distribution.items())
            ],
            "tail": str(self.tail),
            "tail_float": float(self.tail),
        }


# The distribution algebra lives in ``distributions``.


def die_mean(screen: int, *, reroll: bool = True) -> Fraction:
    """Expected §7 hits of one beam die against ``screen`` (re-roll chain summed to the limit).

    ``die_mean(0) == Fraction(4, 5)``, then 3/5, 2/5, 1/5 (§7).
    """
    table = BEAM_TABLE[screen]
    return _chain_mean(table, None) if reroll else Fraction(sum(table), 6)


# ---- per-family unit distributions ----


@dataclass(frozen=True, slots=True)
class _Plan:
    weapon: Weapon
    units: int  # independent identical units (dice or shots)
    unit: Callable[[int], Dist]  # cap -> exact distribution for values ≤ cap
    unit_mean: Fraction
    bounded: bool  # True when the unit's support is finite
    value_kind: str
    scale: int = 1  # multiply the summed unit values (MPC: 4 per hit)
    sum_then_scale: bool = True


def _plan(
    w: Weapon,
    range_mu: float,
    screen: int,
    target: str,
    power_points: int | None,
    count: int,
    as_pd: bool,
    options: RuleOptions,
) -> _Plan:
    # A dry run on zero weapons validates range, target and screen exactly as fire() does.
    fire(
        w,
        Dice(0),
        range_mu=range_mu,
        screen=screen,
        target=target,
        power_points=power_points,
        count=0,
        as_pd=as_pd,
        options=options,
    )
    modifier = PD_GUNBOAT_MODIFIER if target == "gunboat" else 0
    if as_pd:
        threshold = w.pd_threshold or 7
        hit = Fraction(sum(1 for f in range(1, 7) if f + modifier >= threshold), 6)
        unit = {0: 1 - hit, 1: hit}
        return _Plan(w, count, lambda cap: unit, hit, True, "kills")
    if w.family is Family.BEAM:
        n = w.dice_at(range_mu, power_points=power_points) * count
        if target in LIGHT_UNIT_TARGETS:
            # As ``weapons._fire_beam_at_light_unit`` resolves it: the hits against screen 0
            # are craft destroyed.
            depth = None if options.reroll_chains else 1
            table = BEAM_TABLE[0]
            if reroll_allowed(w, 0, options):
                return _Plan(
                    w,
                    n,
                    lambda cap: _chain(table, cap, depth),
                    _chain_mean(table, depth),
                    depth is not None,
                    "kills",
                )
            unit = _chain(table, 10**9, 0)
            return _Plan(w, n, lambda cap: unit, Fraction(sum(table), 6), True, "kills")
        level = screen if w.screens else 0
        table = BEAM_TABLE[level]
        depth = None if options.reroll_chains else 1
        if reroll_allowed(w, level, options):
            mean = _chain_mean(table, depth)
            bounded = depth is not None
            return _Plan(
                w,
                n,
                lambda cap: _chain(table, cap, depth),
                mean * w.damage_per_hit,
                bounded,
                "systems" if w.effect is Effect.SYSTEM_CHECK else "damage",
                scale=w.damage_per_hit,
            )
        unit = _chain(table, 10**9, 0)
        return _Plan(
            w,
            n,
            lambda cap: unit,
            Fraction(sum(table), 6) * w.damage_per_hit,
            True,
            "systems" if w.effect is Effect.SYSTEM_CHECK else "damage",
            scale=w.damage_per_hit,
        )
    if w.family is Family.TO_HIT:
        need = w.band(range_mu).to_hit
        p = Fraction(7 - need, 6)
        if w.effect is Effect.SYSTEM:
            return _Plan(w, count, lambda cap: {0: 1 - p, 1: p}, p, True, "systems")
        dmg = _shift(_nd6_sum(w.damage_dice), w.damage_fixed)
        unit = _mix((1 - p, {0: Fraction(1)}), (p, dmg))
        mean = p * (Fraction(7, 2) * w.damage_dice + w.damage_fixed)
        return _Plan(w, count, lambda cap: unit, mean, True, "damage")
    if w.family is Family.KINETIC:
        need = w.band(range_mu).to_hit
        c = w.kinetic_class
        adds = tuple(kinetic_reroll_add(f, c) for f in range(1, 7))
        plain = Fraction(6 - need, 6)  # faces need..5
        miss = Fraction(need - 1, 6)

        def kinetic(cap: int) -> Dist:
            return _mix(
                (miss, {0: Fraction(1)}),
                (plain, {c: Fraction(1)}),
                (_SIXTH, _shift(_chain(adds, max(cap - c, 0), None), c)),
            )

        mean = plain * c + _SIXTH * (c + _chain_mean(adds, None))
        return _Plan(w, count, kinetic, mean, False, "damage")
    if w.family is Family.PD:
        n = w.band(range_mu).dice * count
        unit = {}
        for face in range(1, 7):
            eff = face + modifier
            k = PD_TABLE[eff - 1] if eff >= 1 else 0
            unit[k] = unit.get(k, Fraction(0)) + _SIXTH
        mean = sum((k * p for k, p in unit.items()), Fraction(0))
        return _Plan(w, n, lambda cap: unit, mean, True, "kills")
    # area family
    unit = {}
    for face in range(1, 7):
        k = area_loss(face, target)
        unit[k] = unit.get(k, Fraction(0)) + _SIXTH
    mean = sum((k * p for k, p in unit.items()), Fraction(0))
    kind = "damage" if target == "ship" else "kills"
    return _Plan(w, count, lambda cap: unit, mean, True, kind)


def _weapon(weapon: object, where: str) -> Weapon:
    """The catalogue entry for an id or a ``Weapon``; :class:`BadArgument` for anything
    else (``odds(None)``)."""
    if isinstance(weapon, str):
        return get_weapon(weapon)
    if isinstance(weapon, Weapon):
        return weapon
    raise BadArgument(f"{where}: weapon must be a weapon id or a Weapon, got {weapon!r}")


def odds(
    weapon: object,
    *,
    range_mu: object,
    screen: object = 0,
    target: str | None = None,
    power_points: object = None,
    count: object = 1,
    as_pd: bool = False,
    options: RuleOptions = DEFAULT_OPTIONS,
    max_dice: int | None = None,
) -> Odds:
    """Exact distribution and mean of the ``value`` of one volley (see ``weapons.Volley``).

    Arguments as :func:`battles.rules.weapons.fire`; for the needle nodule
    ``power_points`` defaults to 6 (the seed's example). Raises ``UnknownWeapon``,
    ``OutOfRange`` and ``RulesError`` exactly as ``fire`` does, and a ``RulesError``
    naming the weapon for ``count`` < 1 and, when ``max_dice`` is given (requests pass
    :data:`MAX_REQUEST_DICE`), for a volley of more dice than that (:func:`volley_dice`).
    """
    w = apply_options(_weapon(weapon, "odds"), options)
    requested = w.id
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise BadArgument(
            f"{w.id}: count must be a whole number ≥ 1 (identical weapons firing), "
            f"got {count!r} (§8–10)"
        )
    range_mu, screen, count, power_points = _check_volley_arguments(
        w.id, range_mu, screen, count, power_points
    )
    target = target or ("fighter" if as_pd else default_target(w))
    if target not in TARGET_KINDS:
        raise RulesError(
            f"{w.id}: unknown target kind {target!r}, expected one of "
            f"{', '.join(TARGET_KINDS)} (§8–10)"
        )
    if w.modes:
        w = apply_options(best_mode(w, range_mu, screen, options), options)
    if w.power_points and power_points is None:
        power_points = 6
    plan = _plan(w, range_mu, screen, target, power_points, count, as_pd, options)
    if max_dice is not None:
        dice, how = _volley_dice(plan, count, power_points)
        if dice > max_dice:
            raise RulesError(
                f"{requested}: {how} = {dice} dice, above the limit of {max_dice} dice "
                "per odds request (fire fewer weapons or power points)"
            )
    dist, tail = _distribution(plan)
    screens_apply = (
        w.screens and w.family is Family.BEAM and not as_pd and target not in LIGHT_UNIT_TARGETS
    )
    kind = plan.value_kind
    if kind == "damage" and w.damage_type is None:
        kind = "hits"
    return Odds(
        weapon=requested,
        range_mu=range_mu,
        screen=screen,
        resolved_as=w.id,
        screens_apply=screens_apply,
        target=target,
        dice=plan.units,
        value_kind=kind,
        mean=plan.unit_mean * plan.units,
        distribution=dist,
        tail=tail,
    )


def _volley_dice(plan: _Plan, count: int, power_points: int | None) -> tuple[int, str]:
    """Dice of a volley (re-rolls not counted) and how they were counted, for messages.

    Beams and everything rolled like a beam (needle nodules: the dice their power points
    buy), PD and area weapons: their dice. A to-hit weapon: one to-hit die per shot plus
    its damage dice. A kinetic gun of class c: c per shot (its value range and re-roll
    adds grow with the class, and so does the work).
    """
    w = plan.weapon
    if w.family is Family.TO_HIT and plan.value_kind == "damage":
        per = 1 + w.damage_dice
        return count * per, f"{count} shot(s) × {per} dice (to-hit and damage)"
    if w.family is Family.KINETIC and plan.value_kind == "damage":
        c = w.kinetic_class
        return count * c, f"{count} shot(s) × class {c} (a class-c shot counts c dice)"
    if w.power_points and plan.value_kind != "kills":
        per = plan.units // count
        return plan.units, f"{count} nodule(s) × {per} dice bought with {power_points} PP"
    if plan.units != count:
        return plan.units, f"{count} weapon(s) × {plan.units // count} dice"
    return plan.units, f"{count} weapon(s), one die each"


def _distribution(plan: _Plan) -> tuple[dict[int, Fraction], Fraction]:
    if plan.units == 0:
        return {0: Fraction(1)}, Fraction(0)
    if plan.bounded:
        unit: Dist = plan.unit(10**9)
        cap = max(unit) * plan.units
        dist = _power(unit, plan.units, cap)
        return _finish(_scale(dist, plan.scale) if plan.scale != 1 else dist, Fraction(0))
    # Unbounded support: start the cap some ten standard deviations above the mean (from the
    # unit's own distribution), then raise it until the exact remainder is below TAIL_LIMIT.
    probe = plan.unit(64)
    m = sum(float(p) * k for k, p in probe.items())
    var = sum(float(p) * (k - m) ** 2 for k, p in probe.items())
    cap = math.ceil(plan.units * m + 10 * math.sqrt(plan.units * var) + 16)
    while True:
        unit = plan.unit(cap)
        dist = _power(unit, plan.units, cap)
        tail = 1 - sum(dist.values(), Fraction(0))
        if tail < TAIL_LIMIT:
            if plan.scale != 1:
                dist = _scale(dist, plan.scale)
            return _finish(dist, tail)
        cap += cap // 2


def _finish(dist: Dist, tail: Fraction) -> tuple[dict[int, Fraction], Fraction]:
    return {k: dist[k] for k in sorted(dist) if dist[k]}, tail


def mean_value(
    weapon: object,
    *,
    range_mu: object,
    screen: object = 0,
    target: str | None = None,
    power_points: object = None,
    count: object = 1,
    options: RuleOptions = DEFAULT_OPTIONS,
) -> Fraction:
    """Only the exact mean of :func:`odds` (cheap: no distribution is built); raises as
    :func:`odds` does."""
    w = apply_options(_weapon(weapon, "mean_value"), options)
    range_mu, screen, count, power_points = _check_volley_arguments(
        w.id, range_mu, screen, count, power_points
    )
    target = target or default_target(w)
    if w.modes:
        w = apply_options(best_mode(w, range_mu, screen, options), options)
    if w.power_points and power_points is None:
        power_points = 6
    plan = _plan(w, range_mu, screen, target, power_points, count, False, options)
    return plan.unit_mean * plan.units
