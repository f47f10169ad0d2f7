"""Light-unit rules as fixed after a rules audit."""

from fractions import Fraction as F

import pytest

from battles.rules.ai import clone
from battles.rules.dice import Dice
from battles.rules.errors import OutOfRange
from battles.rules.odds import odds
from battles.rules.sensors import Contact, observe
from battles.rules.ships import ShipState
from battles.rules.turn import LightUnit, ShipOrders, _phase_light_fire, play_turn
from battles.rules.weapons import fire, get_weapon
from tests.battles.rules.test_turn import ScriptedDice, battle, design, ship
from tests.battles.rules.test_weapons import FixedDice

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


# ---- A7: the EMP launcher rolls 1d6 per craft (seed), no screens, no re-roll -------------


def test_emp_launcher_rolls_one_die_per_craft_at_up_to_12_mu():
    assert fire("gunboat-emp", Dice(1), range_mu=10, count=6).dice == 6
    assert fire("gunboat-emp", Dice(1), range_mu=12, count=1).dice == 1
    with pytest.raises(OutOfRange):
        fire("gunboat-emp", Dice(1), range_mu=13, count=6)


def test_emp_launcher_per_die_table_ignores_screens_and_never_rerolls():
    dice = FixedDice([6, 4, 1, 5, 3, 2])
    v = fire("gunboat-emp", dice, range_mu=10, count=6, screen=2)
    assert v.screen == 0
    assert (v.dice, v.systems, v.value, v.hits) == (6, 4, 4, ())  # 2 + 1 + 0 + 1 + 0 + 0
    assert len(dice.log) == 6  # the 6 grants no re-roll die
    one = fire("gunboat-emp", FixedDice([6]), range_mu=3, screen=3)
    assert one.systems == 2


def test_emp_launcher_odds_match_the_per_die_table():
    o = odds("gunboat-emp", range_mu=12, screen=2, count=6)
    assert (o.dice, o.mean, o.screens_apply, o.value_kind) == (6, 4, False, "systems")
    one = odds("gunboat-emp", range_mu=5)
    assert one.distribution == {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)}


def test_emp_gunboats_make_system_checks_in_phase_10b():
    a = ship("a1", "a", design("A"))
    b = ship("b1", "b", design("B", hull=(5, 5, 5, 5), screens=2), y=40)
    # 2 craft attached to b1, faces 6 and 5 against screen 2: 2 + 1 = 3 hits (no re-roll)
    state = battle(a, b, dice=ScriptedDice([6, 5]))
    state.light_units["e"] = LightUnit(
        "e", "a", "gunboat-emp", 2, 72.0, 0, 40.0, target="b1", attached_to="b1"
    )
    _phase_light_fire(state)
    attack = next(e for e in state.events if e.kind == "attack")
    assert (attack.data["dice"], attack.data["value"]) == (2, 3)
    picks = [r for r in state.dice.log if r.purpose.endswith(" system")]
    assert [r.purpose for r in picks] == [f"b1 EMP hit {i} system" for i in (1, 2, 3)]
    assert b.hull_lost == 0


# ---- A8 / D-20: anti-fighter fire against gunboats ---------------------------------------


@pytest.mark.parametrize("weapon", ["interceptor-nodule", "scattergun"])
@pytest.mark.parametrize(("face", "kills"), [(1, 0), (3, 0), (5, 0), (6, 1)])
def test_area_weapons_against_gunboats_roll_at_minus_2_for_one_loss(weapon, face, kills):
    # D-20 (project reading): 1d6 − 2, one loss on a modified 4+ (a natural 6), else none
    v = fire(weapon, FixedDice([face]), range_mu=5, target="gunboat")
    assert (v.kills, v.value) == (kills, kills)


def test_area_weapons_keep_full_effect_on_fighters():
    assert fire("interceptor-nodule", FixedDice([6]), range_mu=5, target="fighter").kills == 6
    assert fire("scattergun", FixedDice([3]), range_mu=5, target="fighter").kills == 3


def test_area_odds_against_gunboats():
    o = odds("interceptor-nodule", range_mu=12, target="gunboat")
    assert o.distribution == {0: F(5, 6), 1: F(1, 6)}
    assert odds("scattergun", range_mu=6, target="gunboat", count=2).mean == F(1, 3)


@pytest.mark.parametrize("weapon", ["pd", "adaf", "spicule"])
def test_pd_table_dice_kill_at_most_one_gunboat(weapon):
    # D-20: PD, ADAF (and the dogfight PD-table dice) read a 6 as 4 against gunboats: 1 kill
    assert fire(weapon, FixedDice([6]), range_mu=3, target="gunboat").kills == 1
    assert fire(weapon, FixedDice([5]), range_mu=3, target="gunboat").kills == 0
    assert fire(weapon, FixedDice([6]), range_mu=3, target="fighter").kills == 2


def test_a_dogfight_die_showing_6_kills_exactly_one_gunboat():
    a = ship("a1", "a", design("A"))
    b = ship("b1", "b", design("B"), y=60)
    state = battle(a, b, dice=ScriptedDice([6]))
    state.light_units["f"] = LightUnit(
        "f", "a", "fighter-interceptor", 1, 120.0, 0, 0, target="b1", attached_to="a1"
    )
    state.light_units["g"] = LightUnit("g", "b", "gunboat-assault", 6, 108.0, 0, 2, target="a1")
    _phase_light_fire(state)
    fights = [e for e in state.events if e.kind == "dogfight" and e.data["unit"] == "f"]
    assert [(e.data["target"], e.data["kills"]) for e in fights] == [("g", 1)]
    assert state.light_units["g"].craft == 5


# ---- A9: a salvo is six missiles, each striking for 1d6 ----------------------------------


def _launcher(weapon):
    return [
        {"id": "mis-a", "kind": "weapon", "weapon": weapon, "arcs": ["F"], "magazine": "mag-a"},
        {"id": "mag-a", "kind": "magazine", "capacity": 2},
    ]


@pytest.mark.parametrize(
    ("weapon", "craft"), [("missile-salvo", 6), ("missile-standard", 1), ("missile-heavy", 1)]
)
def test_a_salvo_launch_is_six_missiles_other_missiles_one_marker(weapon, craft):
    a = ship("a1", "a", design("A", systems=_launcher(weapon)))
    b = ship("b1", "b", design("B", hull=(9, 9, 9, 9)), y=60)
    state = battle(a, b, dice=Dice(3))
    events = play_turn(state, {"a1": ShipOrders(launches=[("mis-a", "b1")])})
    launch = next(e for e in events if e.kind == "launch")
    assert (launch.data["weapon"], launch.data["craft"]) == (weapon, craft)


def test_point_defence_kills_salvo_missiles_one_by_one_and_the_rest_strike_with_1d6_each():
    a = ship("a1", "a", design("A"), y=0)
    b = ship("b1", "b", design("B", hull=(9, 9, 9, 9), systems=[{"id": "pd-a", "kind": "pd"}]))
    b.y, b.heading = 30, 3
    # initiative 6+6 / 1+1; PD die 4 → 1 missile killed; 5 missiles: to-hit 3, damage 2 each
    state = battle(a, b, dice=ScriptedDice([6, 6, 1, 1, 4] + [3, 2] * 5))
    state.light_units["m"] = LightUnit("m", "a", "missile-salvo", 6, 12.0, 0, 27, target="b1")
    events = play_turn(state, {})
    losses = next(e for e in events if e.kind == "light-unit-losses")
    assert (losses.data["lost"], losses.data["craft"]) == (1, 5)
    strike = next(e for e in events if e.kind == "missile-strike")
    assert strike.data["value"] == 10
    to_hit = [r for r in state.dice.log if "missile-salvo" in r.purpose and "to-hit" in r.purpose]
    damage = [r for r in state.dice.log if "missile-salvo" in r.purpose and "damage" in r.purpose]
    assert (len(to_hit), len(damage)) == (5, 5)


def test_a_full_salvo_strikes_for_6d6():
    v = fire("missile-salvo", FixedDice([3, 6] * 6), range_mu=12, count=6)
    assert (v.dice, v.value, len(v.hits)) == (6, 36, 6)
    assert odds("missile-salvo", range_mu=12, count=6).mean == F(2, 3) * 21
    assert odds("missile-heavy", range_mu=12).mean == F(2, 3) * F(21, 2)


# ---- A10: a transport squadron lands its one squad once ----------------------------------


@pytest.mark.parametrize(
    ("weapon", "squad"),
    [("gunboat-transport", "marines"), ("gunboat-heavy-transport", "fusiliers")],
)
def test_a_transport_squadron_lands_its_squad_once_and_keeps_attacking(weapon, squad):
    a = ship("a1", "a", design("A"), y=0)
    b = ship("b1", "b", design("B", mass=100, hull=(10, 10, 10, 10)), y=40, heading=3)
    state = battle(a, b, dice=Dice(3))
    state.light_units["t"] = LightUnit(
        "t", "a", weapon, 6, 108.0, 0, 40, target="b1", attached_to="b1"
    )
    assert state.light_units["t"].squad_landed is False
    landed = attacks = 0
    for _ in range(3):
        events = play_turn(state, {})
        landed += sum(
            1
            for e in events
            if e.kind == "damage-boarding" and f"{squad} squad(s) aboard" in e.summary
        )
        attacks += sum(1 for e in events if e.kind == "attack" and e.data["unit"] == "t")
    assert landed == 1
    assert attacks == 3
    assert state.light_units["t"].squad_landed is True


# ---- A11: phase 10(a) dogfights ----------------------------------------------------------


def _dogfights(*units, faces=()):
    """Phase 10 alone with ``units`` (unit_id, side, weapon, craft, endurance, y, attached_to)
    near ships a1 (y=0) and b1 (y=4); returns (unit, target, kills) of each dogfight."""
    a = ship("a1", "a", design("A", hull=(9, 9, 9, 9)))
    b = ship("b1", "b", design("B", hull=(9, 9, 9, 9)), y=4)
    state = battle(a, b, dice=ScriptedDice(faces))
    for unit_id, side, weapon, craft, endurance, y, attached in units:
        state.light_units[unit_id] = LightUnit(
            unit_id, side, weapon, craft, endurance, 0, y, attached_to=attached
        )
    _phase_light_fire(state)
    return state, [
        (e.data["unit"], e.data["target"], e.data["kills"])
        for e in state.events
        if e.kind == "dogfight"
    ]


def test_free_fighter_squadrons_within_6_mu_dogfight():
    _, fights = _dogfights(
        ("fa", "a", "fighter-interceptor", 6, 120.0, 100.0, None),
        ("fb", "b", "fighter-interceptor", 6, 120.0, 102.0, None),
        faces=[6, 4, 1, 1, 1, 1] + [5, 1, 1, 1, 1, 1],
    )
    assert fights == [("fa", "fb", 3), ("fb", "fa", 1)]


def test_squadrons_more_than_6_mu_apart_or_without_endurance_do_not_dogfight():
    _, fights = _dogfights(
        ("fa", "a", "fighter-interceptor", 6, 120.0, 100.0, None),
        ("fb", "b", "fighter-interceptor", 6, 120.0, 106.5, None),
    )
    assert fights == []
    state, fights = _dogfights(
        ("fa", "a", "fighter-interceptor", 6, 0.0, 100.0, None),
        ("fb", "b", "drone", 6, 120.0, 102.0, None),
        faces=[6] * 6,
    )
    assert fights == [("fb", "fa", 12)]
    assert state.light_units["fa"].craft == 0


def test_fighters_engage_units_projecting_on_a_ship_and_gunboats():
    # fb projects on a1; fa and the escort gunboats g sit on a1 with it
    _, fights = _dogfights(
        ("fa", "a", "fighter-heavy", 2, 96.0, 0.0, "a1"),
        ("fb", "b", "fighter-interceptor", 3, 120.0, 0.0, "a1"),
        ("gb", "b", "gunboat-assault", 3, 108.0, 3.0, None),
        faces=[6, 4, 1, 1] + [6, 6, 6] + [6, 6, 6],
    )
    # fa: fb and gb tie on 3 craft → the higher unit id, gb; heavy fighters engage gunboats
    # with their anti-ship dice (2 a craft, beam table, 6 → 2, 4 → 1, no re-roll);
    # fb at fa (heavy fighters): 2 a die; gb may engage fa: it escorts, it does not project.
    assert fights == [("fa", "gb", 3), ("fb", "fa", 6), ("gb", "fa", 6)]


def test_gunboats_leave_projecting_units_alone_unless_they_have_area_defence():
    # fb projects on a1, escorted by a's gunboats
    _, fights = _dogfights(
        ("ga", "a", "gunboat-assault", 6, 108.0, 0.0, "a1"),
        ("fb", "b", "fighter-interceptor", 1, 0.0, 0.0, "a1"),
    )
    assert fights == []
    _, fights = _dogfights(
        ("gp", "a", "gunboat-pd", 2, 36.0, 0.0, "a1"),
        ("fb", "b", "fighter-interceptor", 3, 0.0, 0.0, "a1"),
        faces=[6, 4],
    )
    assert fights == [("gp", "fb", 3)]


def test_gunboats_engage_enemy_escorts_and_free_squadrons():
    # fb escorts its own ship b1 (not projecting); fc flies free
    _, fights = _dogfights(
        ("ga", "a", "gunboat-assault", 2, 108.0, 4.0, None),
        ("fb", "b", "fighter-interceptor", 2, 0.0, 4.0, "b1"),
        faces=[6, 5],
    )
    assert fights == [("ga", "fb", 3)]


def test_missiles_are_not_dogfight_targets():
    _, fights = _dogfights(
        ("fa", "a", "fighter-interceptor", 6, 120.0, 100.0, None),
        ("m", "b", "missile-salvo", 6, 12.0, 101.0, None),
    )
    assert fights == []


# ---- A15: advanced sensors report the design's drive type --------------------------------


def test_advanced_sensors_report_the_ships_drive_type():
    fast = ShipState.from_design(design("Fast", drive="advanced"), ship_id="s1", side="b")
    plain = ShipState.from_design(design("Plain"), ship_id="s2", side="b")
    assert (fast.drive_type, plain.drive_type) == ("advanced", "standard")
    assert observe(Contact.from_ship(fast), range_mu=30, sensors="advanced")["drive"] == "advanced"
    assert observe(Contact.from_ship(plain), range_mu=30, sensors="advanced")["drive"] == "standard"
    assert "drive" not in observe(Contact.from_ship(fast), range_mu=20)
    assert fast.copy().drive_type == "advanced" and clone(fast).drive_type == "advanced"


def test_phase_7_contact_report_carries_the_drive_type():
    a = ship("a1", "a", design("A", sensors="advanced"))
    b = ship("b1", "b", design("B", drive="advanced"), y=30)
    events = play_turn(battle(a, b, dice=Dice(3)), {})
    (contact,) = [e for e in events if e.kind == "contact" and e.data["side"] == "a"]
    assert contact.data["report"]["level"] == "advanced"
    assert contact.data["report"]["drive"] == "advanced"
