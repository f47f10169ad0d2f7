"""Star Wars Starship Battles house rules (seed 002): exact values from the seed."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.rules.dice import Dice
from battles.systems.swsb import (
    CRITICAL_TABLE,
    BadScreenSplit,
    RangeError,
    StarshipBattlesError,
    UnknownShip,
    attack_odds,
    critical_damage,
    critical_effect,
    escort_target,
    fire_order,
    fleet_turn,
    formation_fits,
    hunting_bonus,
    navigation_move,
    range_penalties,
    split_screens,
)
from tests.battles.systems.scripted import ScriptedDice


def isd(**kw):
    """The seed's Imperial cruiser: 4 screen points, 2 of them on the right."""
    return {
        "id": "ISD",
        "side": "empire",
        "rank": "class-1",
        "hull": 40,
        "defence": 14,
        "damaged_at": 20,
        "screen_value": 4,
        "split": {"front": 2, "right": 2},
        "base_speed": 4,
    } | kw


def rebel(**kw):
    return {"id": "MC80", "side": "rebels", "rank": "class-1", "hull": 36, "defence": 5} | kw


def test_the_seeds_screen_example():
    # "si il prend 7 points de dommage ... du coté droit ou il avait mis 2 points d'écrans il
    # ne prendra que 5 points de dommages effectifs"
    dice = ScriptedDice([10])
    turn = fleet_turn(
        dice,
        [isd(), rebel()],
        [{"attacker": "MC80", "target": "ISD", "attack": 10, "damage": 7, "facing": "right"}],
        initiative="empire",
    )
    ship = turn.ships["ISD"]
    assert ship.hull == 35 and ship.screens["right"] == 0 and ship.screens["front"] == 2


def test_screen_split_must_add_up():
    assert split_screens(4, {"front": 1, "rear": 1, "left": 1, "right": 1})["left"] == 1
    with pytest.raises(BadScreenSplit, match="adds up to 3, the screen value is 4"):
        split_screens(4, {"front": 3})
    with pytest.raises(BadScreenSplit, match="'top'"):
        split_screens(4, {"top": 4})
    with pytest.raises(BadScreenSplit, match="screens.front"):
        split_screens(4, {"front": "4"})


@pytest.mark.parametrize(
    ("squares", "weapon", "penalties"),
    [
        (6, "standard", (0, 0)),
        (7, "standard", (-1, -1)),
        (9, "standard", (-1, -1)),
        (10, "standard", (-2, -1)),
        (12, "standard", (-2, -1)),
        (13, "standard", (-3, -2)),
        (9, "turbolaser", (0, 0)),
        (10, "turbolaser", (-1, -1)),
        (3, "torpedo", (0, 0)),
    ],
)
def test_range_penalties_beyond_the_effective_range(squares, weapon, penalties):
    assert range_penalties(squares, weapon=weapon) == penalties  # O-2, H-10


def test_class_four_missiles_reach_three_squares():
    with pytest.raises(RangeError, match="beyond a missile's 3 squares"):
        range_penalties(4, weapon="missile")
    with pytest.raises(RangeError, match="range"):
        range_penalties(-1)


def test_fire_order_by_rank_initiative_side_first():
    units = [
        ("rebels", "X-wing", "fighter"),
        ("empire", "ISD", "class-1"),
        ("empire", "TIE/in", "interceptor"),
        ("rebels", "CR90", "class-3"),
        ("empire", "Lancer", "pd"),
        ("rebels", "A-wing", "interceptor"),
    ]
    assert fire_order(units, initiative="rebels") == [
        ("pd", "empire", ["Lancer"]),
        ("class-3", "rebels", ["CR90"]),
        ("interceptor", "rebels", ["A-wing"]),
        ("interceptor", "empire", ["TIE/in"]),
        ("fighter", "rebels", ["X-wing"]),
        ("class-1", "empire", ["ISD"]),
    ]


def test_escorts_interceptors_and_hunting_pairs():
    assert (
        escort_target(attackers_have_interceptors=False, escort_has_interceptors=False) == "escort"
    )
    assert (
        escort_target(attackers_have_interceptors=True, escort_has_interceptors=False)
        == "attacker-choice"
    )
    assert (
        escort_target(
            attackers_have_interceptors=False,
            escort_has_interceptors=True,
            defender_choice="interceptor",
        )
        == "interceptor"
    )
    assert escort_target(attackers_have_interceptors=True, escort_has_interceptors=True) == "escort"
    assert hunting_bonus(["X-wing", "X-wing"]) == 1 and hunting_bonus(["X-wing", "Y-wing"]) == 0


# Face -> effect, straight from the seed's table.
TABLE = {1: "damage+1", 3: "damage+1", 4: "damage+2", 6: "damage+2", 7: "damage+3", 9: "damage+3",
         10: "damage-doubled", 11: "damage-doubled", 12: "navigation-damaged",
         13: "shield-generator-damaged", 14: "shield-generator-destroyed",
         15: "weapon-system-damaged", 16: "bridge-damaged", 17: "engine-damaged",
         18: "engine-destroyed", 19: "fire", 20: "disastrous-fire"}  # fmt: skip


def test_critical_table_faces():
    for face, effect in TABLE.items():
        assert critical_effect(face) == effect
    assert [critical_damage(critical_effect(f), 5) for f in (2, 5, 8, 10)] == [6, 7, 8, 10]
    assert [navigation_move(f) for f in (1, 5, 6, 10, 11, 15, 16, 20)] == [
        "turn-right", "turn-right", "turn-left", "turn-left",
        "straight-full-speed", "straight-full-speed", "free", "free",
    ]  # fmt: skip
    assert len(CRITICAL_TABLE) == 13


def crit_turn(face, *extra_faces, damage=10, facing="front"):
    """The rebel rolls a natural 20 on the ISD (front screen 2), then ``face`` on the table."""
    dice = ScriptedDice([20, face, *extra_faces])
    attack = {"attacker": "MC80", "target": "ISD", "attack": 0, "damage": damage, "facing": facing}
    return fleet_turn(dice, [isd(), rebel()], [attack], initiative="rebels").ships["ISD"]


@pytest.mark.parametrize(
    ("face", "hull"),
    [(2, 40 - 9), (5, 40 - 10), (8, 40 - 11), (10, 40 - 18)],  # 10 (+1/+2/+3/x2) - 2 screen
)
def test_damage_rows_add_to_the_attack_before_the_screen(face, hull):
    assert crit_turn(face).hull == hull


def test_lasting_rows_change_the_ships_state():
    assert crit_turn(12).effects == ["navigation-damaged"]
    gen = crit_turn(13)
    assert gen.screens["right"] == 2 and "shield-generator-damaged" in gen.effects
    dead_gen = crit_turn(14)
    assert set(dead_gen.screens.values()) == {0} and dead_gen.hull == 30  # nothing absorbed
    assert crit_turn(15).attack_modifier(first_weapon=True) == -2
    assert crit_turn(15).attack_modifier() == 0
    assert crit_turn(16).attack_modifier() == -4
    assert crit_turn(17).speed == 2  # 4 halved
    assert crit_turn(18).speed == 0
    fire = crit_turn(19)
    assert fire.effects == ["fire"] and fire.speed == 4
    disaster = crit_turn(20)
    assert (disaster.speed, disaster.attack_modifier()) == (0, -4)


def test_a_critical_absorbed_by_the_screen_has_no_effect():
    ship = crit_turn(16, damage=2)  # 2 damage, 2 screen points: nothing through
    assert ship.effects == [] and ship.hull == 40


def test_starfighters_die_to_a_critical():
    tie = {"id": "TIE", "side": "empire", "rank": "fighter", "hull": 3, "defence": 15}
    turn = fleet_turn(
        ScriptedDice([20]),
        [tie, rebel()],
        [{"attacker": "MC80", "target": "TIE", "attack": 0, "damage": 1}],
        initiative="empire",
    )
    assert turn.ships["TIE"].destroyed


def next_turn(ship, *faces, repairs=None):
    state = ship.to_dict()
    state.pop("speed")
    return fleet_turn(
        ScriptedDice(list(faces)), [state, rebel()], [], initiative="empire", repairs=repairs
    )


def test_fires_burn_two_hull_each_turn_and_screens_regenerate():
    burning = crit_turn(19)
    assert burning.hull == 32
    after = next_turn(burning).ships["ISD"]
    assert after.hull == 30 and after.screens == {"front": 2, "rear": 0, "left": 0, "right": 2}
    no_regen = next_turn(crit_turn(13)).ships["ISD"]
    assert no_regen.screens["front"] == 0  # generator damaged: no regeneration


def test_navigation_die_each_move_and_repairs_cancel_one_effect():
    nav = crit_turn(12)
    turn = next_turn(nav, 7)
    assert [e.detail for e in turn.events if e.kind == "navigation"] == ["turn-left"]
    repaired = next_turn(crit_turn(16), repairs={"ISD": "bridge-damaged"}).ships["ISD"]
    assert repaired.effects == []
    with pytest.raises(StarshipBattlesError, match="repairs.ISD"):
        next_turn(crit_turn(16), repairs={"ISD": "fire"})


def test_becoming_damaged_loses_the_screens_and_rolls_a_critical():
    dice = ScriptedDice([10, 4])  # a hit, then +2 on the damage critical
    attack = {"attacker": "MC80", "target": "ISD", "attack": 10, "damage": 22}
    ship = fleet_turn(dice, [isd(), rebel()], [attack], initiative="empire").ships["ISD"]
    assert ship.reduced and set(ship.screens.values()) == {0}
    assert ship.hull == 40 - 20 - 2
    nxt = next_turn(ship).ships["ISD"]
    assert set(nxt.screens.values()) == {0}  # a reduced ship's screens stay lost


def test_destroyed_ships_are_removed_before_they_fire():
    small = rebel(hull=3, rank="class-2")
    attacks = [
        {"attacker": "MC80", "target": "ISD", "attack": 10, "damage": 5},
        {"attacker": "ISD", "target": "MC80", "attack": 10, "damage": 9},
    ]
    turn = fleet_turn(
        ScriptedDice([15]), [isd(rank="class-3"), small], attacks, initiative="rebels"
    )
    assert turn.ships["MC80"].destroyed
    assert [e.kind for e in turn.events if e.ship == "MC80"][-1] == "skipped"


def test_attack_odds_by_hand():
    # d20 + 8 >= 14: faces 6..20 hit (15/20). 20 damage less 4 screen = 16 through; the table
    # rows give 17 x3, 18 x3, 19 x3, 36 x2, 16 x9 = 378 over 20.
    odds = attack_odds(attack=8, defence=14, damage=20, screen=4)
    assert odds.hit == Fraction(3, 4)
    assert odds.critical_through == Fraction(1, 20)
    assert odds.mean_damage_through == Fraction(14, 20) * 16 + Fraction(1, 20) * Fraction(378, 20)
    far = attack_odds(attack=8, defence=14, damage=20, range_squares=10)
    assert (far.hit, far.damage_on_hit) == (Fraction(13, 20), 19)
    assert attack_odds(attack=30, defence=5, damage=1).hit == Fraction(19, 20)  # a 1 misses
    assert attack_odds(attack=-20, defence=30, damage=1).hit == Fraction(1, 20)  # a 20 hits
    assert attack_odds(attack=8, defence=14, damage=4, screen=4).critical_through == 0


def test_bad_input_names_the_field():
    with pytest.raises(UnknownShip, match=r"attacks\[0\].target"):
        fleet_turn(
            Dice(1),
            [isd(), rebel()],
            [{"attacker": "ISD", "target": "Ghost", "attack": 1, "damage": 1}],
            initiative="empire",
        )
    with pytest.raises(StarshipBattlesError, match=r"attacks\[0\].attack"):
        fleet_turn(
            Dice(1),
            [isd(), rebel()],
            [{"attacker": "ISD", "target": "MC80", "attack": "x", "damage": 1}],
            initiative="empire",
        )
    with pytest.raises(StarshipBattlesError, match="ISD.hull"):
        fleet_turn(Dice(1), [isd(hull=None)], [], initiative="empire")
    with pytest.raises(StarshipBattlesError, match="ships"):
        fleet_turn(Dice(1), "ships", [], initiative="empire")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(-5, 15), st.integers(0, 30), st.integers(0, 15))
def test_same_seed_same_log_and_hull_never_negative(seed, attack, damage, squares):
    attacks = [
        {"attacker": "MC80", "target": "ISD", "attack": attack, "damage": damage, "range": squares},
        {
            "attacker": "ISD",
            "target": "MC80",
            "attack": attack,
            "damage": damage,
            "weapon": "turbolaser",
        },
    ] * 3
    runs = []
    for _ in range(2):
        dice = Dice(seed)
        turn = fleet_turn(dice, [isd(), rebel(defence=12)], attacks, initiative="rebels")
        runs.append((dice.transcript(), [s.to_dict() for s in turn.ships.values()]))
    assert runs[0] == runs[1]
    assert all(s["hull"] >= 0 for s in runs[0][1])


def test_monte_carlo_agrees_with_the_exact_hit_chance():
    exact = attack_odds(attack=6, defence=14, damage=5, range_squares=8)
    n, hits = 3000, 0
    dice = Dice("swsb-mc")
    for _ in range(n):
        turn = fleet_turn(
            dice,
            [isd(hull=1000, damaged_at=0), rebel()],
            [{"attacker": "MC80", "target": "ISD", "attack": 6, "damage": 5, "range": 8}],
            initiative="rebels",
            start_of_turn=False,
        )
        hits += any(e.kind == "attack" and e.detail.endswith("hit") for e in turn.events)
    p = float(exact.hit)
    assert abs(hits / n - p) <= 4 * (p * (1 - p) / n) ** 0.5


def test_two_class_four_units_per_square():
    assert formation_fits(2) and not formation_fits(3)
