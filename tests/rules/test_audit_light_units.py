"""Light-unit rules fixed after the rules audit (reports/audit.md A6–A11, A15)."""

import pytest

from battles.rules.dice import Dice
from battles.rules.errors import OutOfRange
from battles.rules.odds import odds
from battles.rules.turn import LightUnit, _phase_light_fire, play_turn
from battles.rules.weapons import fire, get_weapon
from tests.rules.test_turn import battle, design, ship
from tests.rules.test_weapons import FixedDice

# ---- A6: the MPC gunboat's weapon reaches 12 mu (seed) ----------------------------------


def test_mpc_gunboat_reaches_12_mu():
    assert get_weapon("gunboat-mpc").max_range == 12
    assert fire("gunboat-mpc", Dice(1), range_mu=12, count=6).dice == 6
    with pytest.raises(OutOfRange):
        fire("gunboat-mpc", Dice(1), range_mu=13, count=6)


def test_mpc_gunboat_per_die_table_and_piercing_4_per_hit():
    # faces 1, 3, 4, 5, 6 (re-roll 2): 0 + 0 + 1 + 1 + 2 (+ 0) hits = 4 hits of 4 piercing
    v = fire("gunboat-mpc", FixedDice([1, 3, 4, 5, 6, 2]), range_mu=10, count=5)
    assert v.dice == 5
    assert [h.damage for h in v.hits] == [4, 4, 4, 4]
    assert {h.damage_type.value for h in v.hits} == {"piercing"}
    assert v.value == 16
    assert odds("gunboat-mpc", range_mu=12).dice == 1


def _stand_off(weapon):
    a = ship("a1", "a", design("A"))
    b = ship("b1", "b", design("B", hull=(5, 5, 5, 5)), y=40)
    state = battle(a, b, dice=Dice(3))
    state.light_units["g"] = LightUnit("g", "a", weapon, 6, 36.0, 0, 28.0, target="b1")
    return state


def test_mpc_gunboat_attacks_its_target_at_12_mu_in_phase_10b():
    state = _stand_off("gunboat-mpc")
    _phase_light_fire(state)  # phase 10 alone: the squadron stays 12 mu off
    attacks = [e for e in state.events if e.kind == "attack"]
    assert [(e.data["unit"], e.data["dice"], e.data["sub_phase"]) for e in attacks] == [
        ("g", 6, "b")
    ]


def test_a_6_mu_gunboat_does_not_attack_at_12_mu():
    state = _stand_off("gunboat-assault")
    _phase_light_fire(state)
    assert not [e for e in state.events if e.kind == "attack"]


def test_mpc_gunboat_still_flies_to_its_target_and_attaches():
    a = ship("a1", "a", design("A"))
    b = ship("b1", "b", design("B", mass=100, hull=(25, 25, 25, 25)), y=40)
    state = battle(a, b, dice=Dice(3))
    state.light_units["g"] = LightUnit("g", "a", "gunboat-mpc", 6, 126.0, 0, 20.0, target="b1")
    events = play_turn(state, {})
    assert state.light_units["g"].attached_to == "b1"
    assert [e.data["dice"] for e in events if e.kind == "attack"] == [6]
