"""Exact odds (battles/rules/odds.py) against hand-derived fractions (§7–§10)."""

from fractions import Fraction as F

import pytest

from battles.rules.distributions import _chain, _power, _power_fractions
from battles.rules.errors import OutOfRange, UnknownWeapon
from battles.rules.odds import TAIL_LIMIT, die_mean, mean_value, odds
from battles.rules.options import RuleOptions
from battles.rules.weapons import weapon_ids


def test_reference_beam_die_means():
    # §7: E = p + E/6 → 4/5, 3/5, 2/5, 1/5.
    assert [die_mean(s) for s in range(4)] == [F(4, 5), F(3, 5), F(2, 5), F(1, 5)]
    for s, mean in enumerate([F(4, 5), F(3, 5), F(2, 5), F(1, 5)]):
        assert odds("beam-3", range_mu=12, screen=s).mean == mean


def test_single_beam_die_distribution_is_exact():
    o = odds("beam-3", range_mu=1)
    d = o.distribution
    # P(0) = 1/2; P(1) = 1/3 (a 4 or 5); P(2) = 1/6 × P(X' = 0) = 1/12; P(3) = 1/6 × 1/3.
    assert d[0] == F(1, 2) and d[1] == F(1, 3) and d[2] == F(1, 12) and d[3] == F(1, 18)
    assert sum(d.values()) + o.tail == 1
    assert 0 < o.tail < TAIL_LIMIT
    # the listed distribution's mean approaches the exact mean within the tail's reach
    approx = sum(k * p for k, p in d.items())
    assert F(4, 5) - approx < F(1, 10**9)


def test_class_2_beam_example():
    o = odds("beam-2", range_mu=12)
    assert o.dice == 2 and o.mean == F(8, 5)
    assert o.distribution[0] == F(1, 4)
    assert odds("beam-2", range_mu=13).dice == 1


def test_needle_nodule_six_power_points():
    assert odds("needle-nodule", range_mu=12, power_points=6).dice == 6
    assert odds("needle-nodule", range_mu=24, power_points=6).mean == 3 * F(4, 5)
    assert odds("needle-nodule", range_mu=36, power_points=6, screen=2).mean == F(2, 5)


def test_kinetic_mean_sums_the_chain():
    # kgun-3 at 0–6 (2+): 4/6 × 3 + 1/6 × (3 + E[Y]); Y adds 6 on 1–3, 3 on 4–6 and
    # chains on 6: E[Y] = (18 + 9)/5.
    assert odds("kgun-3", range_mu=6).mean == F(4, 6) * 3 + F(1, 6) * (3 + F(27, 5))
    o = odds("kgun-1", range_mu=30)
    assert o.distribution[0] == F(5, 6)
    assert sum(o.distribution.values()) + o.tail == 1


def test_to_hit_families():
    o = odds("plasma-torpedo", range_mu=20)
    assert o.mean == F(1, 6) * F(7, 2) and o.tail == 0
    assert odds("missile-salvo", range_mu=13, count=6).mean == F(3, 6) * 21
    assert odds("lance", range_mu=9).mean == F(1, 6)
    assert odds("vampire", range_mu=24).distribution == {0: F(5, 6), 2: F(1, 6)}


def test_rocket_pack_and_mpc():
    o = odds("rocket-pack", range_mu=6, screen=3)
    assert o.screen == 3 and not o.screens_apply and o.mean == 3 * F(4, 6) and o.tail == 0
    assert max(o.distribution) == 6
    # D-14: the MPC's per-die table has no re-roll: 4 × (1/3 + 2/6).
    assert odds("mpc", range_mu=12).mean == F(8, 3)
    assert set(odds("mpc", range_mu=12).distribution) <= set(range(0, 400, 4))


def test_pd_and_area():
    assert odds("pd", range_mu=6).mean == F(4, 6)
    assert odds("pd", range_mu=6, target="gunboat").mean == F(1, 6)
    assert odds("beam-1", range_mu=6, as_pd=True).mean == F(2, 6)
    assert odds("interceptor-nodule", range_mu=12).mean == F(7, 2)
    assert odds("interceptor-nodule", range_mu=12, target="heavy-fighter").mean == F(12, 6)
    assert odds("scattergun", range_mu=6, target="plasma").mean == F(4, 6)


def test_options_change_the_odds():
    assert odds("beam-3", range_mu=5, options=RuleOptions(reroll_chains=False)).mean == F(7, 9)
    assert odds(
        "beam-3", range_mu=5, screen=2, options=RuleOptions(reroll_against_screens=False)
    ).mean == F(2, 6)
    assert odds("rocket-pack", range_mu=5, options=RuleOptions(rocket_pack_reroll=True)).mean == (
        3 * F(4, 5)
    )
    assert odds("mpc", range_mu=5, options=RuleOptions(mpc_dice=2)).dice == 2


#: Hand-derived means at range 0 against the weapon's default target, no screen (§7–§10).
BEAM_DIE = F(4, 5)  # §7: E = p + E/6 over (0, 0, 0, 1, 1, 2), a 6 re-rolled
FLAT_DIE = F(4, 6)  # the same table with no re-roll (PD §10, MPC/rocket pack D-14, EMP §9)
D6 = F(7, 2)
NEAR = F(4, 6)  # to-hit 3+ (torpedo, missile, plasma bands at range 0)


def kinetic(c: int) -> F:
    """§8 (D-15), band 1 (2+): c on 2–5; on a 6, c plus a chained re-roll adding c on a
    face above c, else 2c: E[Y] = (c(6 − c) + 2c·c) / 5."""
    return F(4, 6) * c + F(1, 6) * (c + F(c * (6 + c), 5))


EXACT_MEAN_AT_0 = {
    **{f"beam-{k}": n * BEAM_DIE for k, n in ((1, 3), (2, 2), (3, 1))},
    **{f"graser-{k}": n * BEAM_DIE for k, n in ((1, 3), (2, 2), (3, 1))},
    **{f"{v}{c}": kinetic(c) for v in ("kgun-", "kgun-hv-", "kgun-lv-") for c in (1, 2, 3, 4)},
    # beam-table attack dice of fighters, drones, gunboats (§9) and pulsers (§8)
    **dict.fromkeys(["drone", "fighter-interceptor", "fighter-long-range"], BEAM_DIE),
    **dict.fromkeys(["gunboat-transport", "pulser-long"], BEAM_DIE),
    **dict.fromkeys(["drone-heavy", "fighter-heavy", "gunboat-assault"], 2 * BEAM_DIE),
    **dict.fromkeys(["gunboat-heavy-transport", "gunboat-pd", "pulser-medium"], 2 * BEAM_DIE),
    **dict.fromkeys(["pulser", "pulser-short", "needle-nodule"], 6 * BEAM_DIE),  # 6 dice, 6 PP
    # PD table at a fighter, scattergun's ship table, EMP: no re-roll
    **dict.fromkeys(["pd", "adaf", "spicule", "scattergun", "gunboat-emp"], FLAT_DIE),
    "mpc": 4 * FLAT_DIE,
    "gunboat-mpc": 4 * FLAT_DIE,
    "rocket-pack": 3 * FLAT_DIE,
    "interceptor-nodule": D6,  # a fighter loses the face
    "lance": F(1, 6),  # one system on a 6
    # to-hit 3+, then the damage: d6, 2d6, 3d6, or 2 fixed (vampire)
    **dict.fromkeys(["plasma-torpedo", "plasma-bolt", "penetrator", "missile-salvo"], NEAR * D6),
    "missile-standard": NEAR * 2 * D6,
    "missile-heavy": NEAR * 3 * D6,
    "vampire": NEAR * 2,
}


def test_every_weapon_has_a_hand_derived_mean():
    assert sorted(EXACT_MEAN_AT_0) == sorted(weapon_ids())


@pytest.mark.parametrize("wid", weapon_ids())
def test_every_weapon_has_odds_that_sum_to_one(wid):
    o = odds(wid, range_mu=0)
    assert sum(o.distribution.values()) + o.tail == 1
    assert o.mean == EXACT_MEAN_AT_0[wid]
    assert mean_value(wid, range_mu=0, target=o.target) == o.mean  # the cheap path agrees
    listed = sum(k * p for k, p in o.distribution.items())
    assert listed == o.mean if o.tail == 0 else listed < o.mean


def test_pulser_reports_the_mode_used():
    o = odds("pulser", range_mu=20, screen=1)
    assert o.weapon == "pulser" and o.resolved_as == "pulser-medium" and o.screens_apply
    assert o.mean == 2 * F(3, 5)


def test_errors():
    with pytest.raises(UnknownWeapon):
        odds("death-ray", range_mu=1)
    with pytest.raises(OutOfRange, match="§8"):
        odds("beam-1", range_mu=37)


def test_integer_convolution_matches_fraction_convolution():
    for faces in [(0, 0, 0, 1, 1, 2), (0, 0, 0, 0, 0, 1), (6, 6, 6, 3, 3, 3)]:
        unit = _chain(faces, 40, None)
        for n in (1, 2, 5):
            assert _power(unit, n, 40) == _power_fractions(unit, n, 40)
    # a unit outside the integer invariant falls back to fractions and stays exact
    odd = {0: F(1, 3), 1: F(2, 3)}
    assert _power(odd, 3, 3) == {0: F(1, 27), 1: F(6, 27), 2: F(12, 27), 3: F(8, 27)}


def test_large_volleys_stay_exact():
    o = odds("beam-1", range_mu=5, count=20)
    assert o.dice == 60 and o.mean == 48
    assert sum(o.distribution.values()) + o.tail == 1 and o.tail < TAIL_LIMIT
