"""Bad input: wrong types handed to public engine functions and negative design
values raise the engine's own ``RulesError`` subclasses naming the field, never
``TypeError`` / ``AttributeError``."""

import pytest

from battles.rules.ai import resolve_battle
from battles.rules.dice import Dice
from battles.rules.errors import BadArgument, RulesError
from battles.rules.movement import parse_orders
from battles.rules.odds import mean_value, odds
from battles.rules.sensors import blips, sensor_range
from battles.rules.ships import DesignError, ShipState
from battles.rules.weapons import fire, get_weapon
from tests.battles.rules.test_turn import design


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"count": 1.5}, "count"),
        ({"count": True}, "count"),
        ({"count": "2"}, "count"),
        ({"range_mu": "5"}, "range_mu"),
        ({"range_mu": None}, "range_mu"),
        ({"screen": 1.0}, "screen"),
    ],
)
def test_fire_names_the_bad_field(kwargs, field):
    args = {"range_mu": 5, **kwargs}
    with pytest.raises(BadArgument, match=rf"^beam-1: {field}"):
        fire("beam-1", Dice(1), **args)


def test_fire_needle_power_points_must_be_whole():
    with pytest.raises(BadArgument, match=r"^needle-nodule: power_points"):
        fire("needle-nodule", Dice(1), range_mu=5, power_points=2.5)


@pytest.mark.parametrize("weapon", [None, 3, ["beam-1"]])
def test_odds_and_fire_refuse_a_weapon_that_is_not_an_id(weapon):
    with pytest.raises(BadArgument, match=r"^odds: weapon must be a weapon id or a Weapon"):
        odds(weapon, range_mu=5)
    with pytest.raises(BadArgument, match=r"^mean_value: weapon must be"):
        mean_value(weapon, range_mu=5)
    with pytest.raises(BadArgument, match=r"^fire: weapon must be"):
        fire(weapon, Dice(1), range_mu=5)


def test_odds_range_and_count_types():
    with pytest.raises(BadArgument, match=r"^beam-2: range_mu must be a number"):
        odds("beam-2", range_mu="5")
    with pytest.raises(BadArgument, match=r"^beam-2: count must be a whole number ≥ 1"):
        odds("beam-2", range_mu=5, count=1.5)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"armour": {"layers": [2, -1]}}, r"armour.layers\[1\] must be ≥ 0, got -1"),
        ({"thrust": -2}, "thrust must be ≥ 0, got -2"),
        ({"thrust": "fast"}, "thrust must be a whole number, got 'fast'"),
        ({"ecm": -1}, "ecm must be ≥ 0"),
        ({"fire_controls": 1.5}, "fire_controls must be a whole number, got 1.5"),
        ({"screens": -1}, "screens must be ≥ 0"),
        ({"power": {"power_points": -6}}, "power.power_points must be ≥ 0, got -6"),
        ({"power": {"biomass": -1}}, "power.biomass must be ≥ 0"),
        ({"power": 6}, "power must be a mapping"),
        ({"armour": [1, 2]}, "armour must be a mapping"),
        (
            {"systems": [{"id": "mag", "kind": "magazine", "capacity": -3}]},
            r"systems\[0\] \(mag\).capacity must be ≥ 0, got -3",
        ),
        (
            {"systems": [{"id": "rp", "kind": "weapon", "weapon": "rocket-pack", "ammo": -1}]},
            r"systems\[0\] \(rp\).ammo must be ≥ 0",
        ),
    ],
)
def test_from_design_refuses_negative_values_naming_the_field(change, field):
    d = {**design("Bad"), **change}
    with pytest.raises(DesignError, match=rf"^design 'Bad': {field}"):
        ShipState.from_design(d, ship_id="s1", side="a")


def test_from_design_carried_damage_and_non_mapping():
    with pytest.raises(DesignError, match=r"^ship s1: carried damage: hull_lost must be ≥ 0"):
        ShipState.from_design(design("D"), ship_id="s1", side="a", hull_lost=-1)
    with pytest.raises(DesignError, match=r"crew_lost must be a whole number, got 'x'"):
        ShipState.from_design(design("D"), ship_id="s1", side="a", crew_lost="x")
    with pytest.raises(DesignError, match=r"^ship s1: design must be a mapping"):
        ShipState.from_design(None, ship_id="s1", side="a")
    assert issubclass(DesignError, RulesError) and issubclass(BadArgument, RulesError)


def test_more_public_functions_name_the_bad_argument():
    with pytest.raises(BadArgument, match=r"^K: movement: thrust must be a whole number"):
        parse_orders("+1", ship="K", thrust="4", speed=5)
    with pytest.raises(BadArgument, match=r"^K: movement: speed must be a whole number"):
        parse_orders("+1", ship="K", thrust=4, speed=None)
    with pytest.raises(BadArgument, match=r"^weapon id must be text, got None"):
        get_weapon(None)
    with pytest.raises(BadArgument, match=r"^fire: dice must be"):
        fire("beam-1", None, range_mu=5)
    with pytest.raises(BadArgument, match=r"^sensor_range: target_ecm must be a whole"):
        sensor_range("standard", target_ecm="1")
    with pytest.raises(BadArgument, match=r"^blips: mass must be a whole number"):
        blips("50")
    with pytest.raises(BadArgument, match=r"^resolve_battle: fleet_a must be a sequence"):
        resolve_battle([{"ship": 1}], [], seed=1)
    ship_a = ShipState.from_design(design("A"), ship_id="a1", side="a")
    ship_b = ShipState.from_design(design("B"), ship_id="b1", side="b")
    with pytest.raises(BadArgument, match=r"^resolve_battle: options must be RuleOptions"):
        resolve_battle([ship_a], [ship_b], seed=1, options=["mpc_dice"])
    with pytest.raises(RulesError, match=r"unknown rule option 'laser'"):
        resolve_battle([ship_a], [ship_b], seed=1, options={"laser": True})
