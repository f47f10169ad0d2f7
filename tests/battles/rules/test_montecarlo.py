"""Monte-Carlo vs exact: 100 000 seeded volleys per weapon family agree with odds.py.

Tolerance: every compared quantity (the mean, and P(value = k) for each k with p ≥ 1 %)
must lie within 5 standard errors of the exact value (σ/√N from the exact distribution),
a false-alarm chance under 10⁻⁶ per quantity. Seeds are fixed, so the test is repeatable.
"""

import math
from collections import Counter

import pytest

from battles.rules.dice import Dice
from battles.rules.odds import odds
from battles.rules.weapons import fire

N = 100_000
pytestmark = pytest.mark.slow  # 600 000 volleys fired
Z = 5


@pytest.mark.parametrize(
    ("family", "weapon", "kwargs"),
    [
        ("beam", "beam-2", {"range_mu": 12, "screen": 1}),
        ("beam, semi-piercing, no re-roll", "rocket-pack", {"range_mu": 6}),
        ("to-hit", "plasma-torpedo", {"range_mu": 10}),
        ("kinetic", "kgun-2", {"range_mu": 5}),
        ("pd vs gunboats", "pd", {"range_mu": 4, "target": "gunboat"}),
        ("area", "interceptor-nodule", {"range_mu": 8, "target": "heavy-fighter"}),
    ],
)
def test_family_agrees_with_exact_odds(family, weapon, kwargs):
    exact = odds(weapon, **kwargs)
    dice = Dice(f"montecarlo {weapon}")
    counts: Counter[int] = Counter()
    for _ in range(N):
        counts[fire(weapon, dice, **kwargs).value] += 1
        if len(dice.log) > 50_000:
            dice.log.clear()  # the log is not under test here; keep memory flat
    mean = float(exact.mean)
    var = sum((k - mean) ** 2 * float(p) for k, p in exact.distribution.items())
    mc_mean = sum(k * c for k, c in counts.items()) / N
    assert abs(mc_mean - mean) <= Z * math.sqrt(var / N), (family, mc_mean, mean)
    for k, p in exact.distribution.items():
        p = float(p)
        if p >= 0.01:
            se = math.sqrt(p * (1 - p) / N)
            assert abs(counts[k] / N - p) <= Z * se, (family, k, counts[k] / N, p)
    # nothing observed outside the exact support
    assert set(counts) <= set(exact.distribution) | {k for k in counts if exact.tail}
