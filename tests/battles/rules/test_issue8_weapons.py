"""Weapon readings outside the turn sequence: MPC without re-roll (D-14), the
EMP options (D-14, D-27) and the rule options' parsing (§16)."""

from fractions import Fraction as F

from battles.rules.odds import odds
from battles.rules.options import RuleOptions
from battles.rules.weapons import fire
from tests.battles.rules.test_weapons import FixedDice


def test_mpc_has_no_reroll_mean_8_thirds():
    """Seed: « Sa portée maximum est de 12mu (1-3 : Aucun effet/ 4-5 : 1 touche/ 6 : 2
    touches) » and « Chaque touche inflige 4 points de dégâts » — no « relance » (D-14).
    One MPC: 4 × (2/6 × 1 + 1/6 × 2) = 8/3 damage."""
    o = odds("mpc", range_mu=12)
    assert o.mean == F(8, 3)
    assert o.distribution == {0: F(1, 2), 4: F(1, 3), 8: F(1, 6)}


def test_mpc_gunboat_squadron_of_6_means_16():
    """Six MPC gunboats, 1d6 each at 12 mu: 6 × 8/3 = 16 (not 96/5 with re-rolls)."""
    assert odds("gunboat-mpc", range_mu=12, count=6).mean == 16


def test_mpc_six_rolls_no_extra_die():
    v = fire("mpc", FixedDice([6]), range_mu=12)
    assert v.value == 8 and [h.reroll for h in v.hits] == [False, False]
    v = fire("gunboat-mpc", FixedDice([6, 6, 1]), range_mu=6, count=3)
    assert v.value == 16 and v.dice == 3


def test_mpc_reroll_option_restores_the_beam_reroll():
    """D-14 option ``mpc_reroll``: 6s re-roll as §7, E = p + E/6 → 4 × 4/5 = 16/5."""
    opts = RuleOptions(mpc_reroll=True)
    assert odds("mpc", range_mu=12, options=opts).mean == F(16, 5)
    assert odds("gunboat-mpc", range_mu=12, count=6, options=opts).mean == F(96, 5)
    v = fire("mpc", FixedDice([6, 5]), range_mu=12, options=opts)
    assert v.value == 12  # 2 hits + 1 re-roll hit, 4 each


def test_emp_dice_per_craft_no_reroll_and_the_reroll_option():
    """D-27: « Dégâts : 1d6 » per craft (1-3 none / 4-5 1 hit / 6 2 hits), no re-roll
    (D-14): 6 craft → 6 dice, mean 4 system checks; ``emp_reroll``: 4/5 a die."""
    assert odds("gunboat-emp", range_mu=12, count=6).dice == 6
    assert odds("gunboat-emp", range_mu=12, count=6).mean == 4
    assert odds("gunboat-emp", range_mu=12, options=RuleOptions(emp_reroll=True)).mean == F(4, 5)
