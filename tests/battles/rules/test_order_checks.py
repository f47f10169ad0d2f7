"""Phase-1 order checks (rules §2 phase 1, §3, §6, §8): what the orders
alone make illegal raises a ``RulesError`` before any die is rolled and leaves the state as
it was; what only movement decides (arc, range) is a phase-9 ``fire-refused`` event."""

import pytest

from battles.rules.ai import resolve_battle
from battles.rules.errors import IllegalOrder, MagazineDestroyed, NoFireControl, UnknownWeapon
from battles.rules.options import RuleOptions
from battles.rules.ships import Status
from battles.rules.turn import FireIntent, LightUnit, ShipOrders, play_turn
from tests.battles.rules.test_turn import BEAM1, ScriptedDice, battle, design, ship


def _refused_in_phase_1(state, orders, error, match):
    """``play_turn`` raises ``error`` (message matching ``match``) and changes nothing."""
    turn, events, marks = state.turn, list(state.events), list(state.roll_marks)
    with pytest.raises(error, match=match) as raised:
        play_turn(state, orders)
    assert type(raised.value) is error
    assert state.turn == turn and state.events == events and state.roll_marks == marks
    assert state.dice.log == []
    return str(raised.value)


def _two_ships(a_design, *, b_y=10.0, **kw):
    a = ship("a1", "a", a_design)
    b = ship("b1", "b", design("B", hull=(5, 5, 5, 5)), y=b_y, heading=3)
    return a, b, battle(a, b, dice=ScriptedDice([6, 6, 1, 1] + [5] * 20), **kw)


# ---- one volley per system per turn ------------------------------------------------------


def test_a_system_ordered_to_fire_twice_is_refused_in_phase_1():
    a, b, state = _two_ships(design("A", fcs=1, thrust=4, systems=[BEAM1]))
    message = _refused_in_phase_1(
        state,
        {"a1": ShipOrders("", fire=[FireIntent("beam-a", "b1")] * 5)},
        IllegalOrder,
        "A1: beam-a",
    )
    assert message == (
        "A1: beam-a (beam-1) ordered to fire twice; a weapon system fires at most once a "
        "turn (rules §6, §8)"
    )
    # Once is fine: one fire event.
    events = play_turn(state, {"a1": ShipOrders("", fire=[FireIntent("beam-a", "b1")])})
    assert [e.kind for e in events].count("fire") == 1


def test_a_second_order_for_a_system_at_another_target_is_refused_too():
    a, b, state = _two_ships(design("A", fcs=2, systems=[BEAM1]))
    b2 = ship("b2", "b", design("B"), x=2, y=10)
    state.ships["b2"] = b2
    _refused_in_phase_1(
        state,
        {"a1": ShipOrders(fire=[FireIntent("beam-a", "b1"), FireIntent("beam-a", "b2")])},
        IllegalOrder,
        r"^A1: beam-a \(beam-1\) ordered to fire twice.*§6, §8\)$",
    )


# ---- targets, magazines and fire control known in phase 1 ---------------------------------


TORP = {"id": "torp-a", "kind": "weapon", "weapon": "plasma-torpedo", "arcs": ["F"]}
TORP_B = {**TORP, "id": "torp-b"}
MAG = {"id": "mag-a", "kind": "magazine", "capacity": 1}
LANCE = {"id": "lance-a", "kind": "weapon", "weapon": "lance", "arcs": ["F", "FS", "FP"]}


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "ghost",
            "A1: beam-a (beam-1): no ship or light unit 'ghost' on the table to fire at (rules §6)",
        ),
        ("", "A1: beam-a (beam-1): no target ordered (rules §6)"),
        ("a2", "A1: beam-a (beam-1) at a2: a friendly unit is not a target (rules §6)"),
        ("fa", "A1: beam-a (beam-1) at fa: a friendly unit is not a target (rules §6)"),
    ],
)
def test_unknown_missing_or_friendly_targets_raise_in_phase_1(target, message):
    a, b, state = _two_ships(design("A", systems=[BEAM1]))
    state.ships["a2"] = ship("a2", "a", design("A"), y=5)
    state.light_units["fa"] = LightUnit("fa", "a", "fighter-interceptor", 6, 100.0, 0, 5)
    got = _refused_in_phase_1(
        state, {"a1": ShipOrders(fire=[FireIntent("beam-a", target)])}, IllegalOrder, "§6"
    )
    assert got == message


def test_an_unknown_weapon_id_names_the_ship_and_system():
    a, b, state = _two_ships(design("A", systems=[BEAM1]))
    a.systems["beam-a"].weapon = "death-ray"
    got = _refused_in_phase_1(
        state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "b1")])}, UnknownWeapon, "A1"
    )
    assert got.startswith("A1: beam-a: unknown weapon id 'death-ray'") and "§8–10" in got


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("destroyed", "A1: torp-a (plasma-torpedo): its magazine 'mag-a' is destroyed (rules §8)"),
        ("damaged", "A1: torp-a (plasma-torpedo): its magazine 'mag-a' is damaged (rules §8)"),
        ("missing", "A1: torp-a (plasma-torpedo): its magazine 'mag-a' is missing (rules §8)"),
        (
            "empty",
            "A1: torp-a (plasma-torpedo): magazine 'mag-a' has 0 round(s) left, 1 ordered from "
            "it this turn (rules §8)",
        ),
    ],
)
def test_a_torpedo_whose_magazine_is_gone_or_empty_raises_in_phase_1(damage, message):
    a, b, state = _two_ships(design("A", fcs=2, systems=[{**TORP, "magazine": "mag-a"}, MAG]))
    if damage == "missing":
        del a.systems["mag-a"]
    elif damage == "empty":
        a.systems["mag-a"].ammo = 0
    else:
        a.systems["mag-a"].status = Status(damage)
    got = _refused_in_phase_1(
        state, {"a1": ShipOrders(fire=[FireIntent("torp-a", "b1")])}, MagazineDestroyed, "§8"
    )
    assert got == message


def test_shots_drawn_from_one_magazine_are_counted():
    systems = [{**TORP, "magazine": "mag-a"}, {**TORP_B, "magazine": "mag-a"}, MAG]
    a, b, state = _two_ships(design("A", fcs=2, systems=systems))
    both = [FireIntent("torp-a", "b1"), FireIntent("torp-b", "b1")]
    got = _refused_in_phase_1(state, {"a1": ShipOrders(fire=both)}, MagazineDestroyed, "§8")
    assert got == (
        "A1: torp-b (plasma-torpedo): magazine 'mag-a' has 1 round(s) left, 2 ordered from "
        "it this turn (rules §8)"
    )
    events = play_turn(state, {"a1": ShipOrders(fire=both[:1])})
    assert [e.kind for e in events].count("fire") == 1 and a.systems["mag-a"].ammo == 0


def test_a_missile_launch_draws_from_the_magazine_before_the_torpedo():
    launcher = {"id": "mis-a", "kind": "weapon", "weapon": "missile-heavy", "arcs": ["F"]}
    systems = [{**launcher, "magazine": "mag-a"}, {**TORP, "magazine": "mag-a"}, MAG]
    a, b, state = _two_ships(design("A", fcs=2, systems=systems))
    orders = ShipOrders(launches=[("mis-a", "b1")], fire=[FireIntent("torp-a", "b1")])
    got = _refused_in_phase_1(state, {"a1": orders}, MagazineDestroyed, "§8")
    assert got.startswith("A1: torp-a (plasma-torpedo): magazine 'mag-a' has 1 round(s) left, 2")


def test_more_targets_than_fire_controls_raise_no_fire_control():
    beam_b = {**BEAM1, "id": "beam-b"}
    a, b, state = _two_ships(design("A", fcs=1, systems=[BEAM1, beam_b]))
    state.ships["b2"] = ship("b2", "b", design("B"), x=2, y=10)
    two = [FireIntent("beam-a", "b1"), FireIntent("beam-b", "b2")]
    got = _refused_in_phase_1(state, {"a1": ShipOrders(fire=two)}, NoFireControl, "§6")
    assert got == (
        "A1: no free fire control for beam-b (beam-1) at b2 (1 working, all directing: "
        "target b1) (rules §6)"
    )
    # Two systems at one target take one FC.
    same = [FireIntent("beam-a", "b1"), FireIntent("beam-b", "b1")]
    assert [e.kind for e in play_turn(state, {"a1": ShipOrders(fire=same)})].count("fire") == 2


def test_a_lance_takes_a_fire_control_of_its_own():
    # Under the D-12 option (only the lance's FC is exclusive): beam and lance need 2 FCs.
    # (Under the default a lance fires alone: see tests/battles/rules/test_issue8_turn.py.)
    options = RuleOptions(lance_exclusive=False)
    a, b, state = _two_ships(design("A", fcs=1, systems=[BEAM1, LANCE]), options=options)
    both = [FireIntent("beam-a", "b1"), FireIntent("lance-a", "b1")]
    got = _refused_in_phase_1(state, {"a1": ShipOrders(fire=both)}, NoFireControl, "§6")
    assert got.startswith("A1: no free fire control for lance-a (lance) at b1 (1 working")


def test_light_unit_targets_count_unless_class_1_weapons_may_meet_them_as_pd():
    a, b, state = _two_ships(design("A", fcs=0, systems=[BEAM1]))
    state.light_units["far"] = LightUnit("far", "b", "gunboat-assault", 6, 0.0, 0, 30)
    got = _refused_in_phase_1(
        state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "far")])}, NoFireControl, "§6"
    )
    assert got.startswith("A1: no free fire control for beam-a (beam-1) at far (0 working")
    # Homing on a1 within reach: it attaches in phase 3 and the beam meets it as PD.
    state.light_units["f"] = LightUnit("f", "b", "fighter-interceptor", 6, 100.0, 0, 4, target="a1")
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "f")])})
    assert "fire" in [e.kind for e in events]


def test_a_vapour_veil_already_on_leaves_no_fire_control():
    veil = {"id": "veil", "kind": "vapour-veil"}
    a, b, state = _two_ships(design("A", fcs=1, systems=[BEAM1, veil]))
    state.veiled.add("a1")
    fire = [FireIntent("beam-a", "b1")]
    got = _refused_in_phase_1(state, {"a1": ShipOrders(fire=fire)}, NoFireControl, "§14")
    assert got == (
        "A1: no free fire control for beam-a (beam-1) at b1 (0 working, all directing: "
        "nothing) (rules §6); its vapour veil is on (rules §14)"
    )
    # Switched off in phase 2: the FC directs the beam in phase 9.
    events = play_turn(state, {"a1": ShipOrders(veil=False, fire=fire)})
    assert "fire" in [e.kind for e in events]


def test_arc_and_range_are_phase_9_refusals_with_the_error_class():
    a, b, state = _two_ships(design("A", systems=[BEAM1]), b_y=-10)  # astern
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "b1")])})
    (refused,) = [e for e in events if e.kind == "fire-refused"]
    assert refused.phase == 9 and refused.data["error"] == "OutOfArc"
    assert refused.data["ship"] == "a1" and refused.data["system"] == "beam-a"
    assert refused.summary == (
        "A1 beam-a at b1: A1: beam-a (beam-1) at b1: target in arc A, weapon arcs F/FS/FP "
        "(rules §6)"
    )
    a, b, state = _two_ships(design("A", systems=[BEAM1]), b_y=40)
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "b1")])})
    (refused,) = [e for e in events if e.kind == "fire-refused"]
    assert refused.data["error"] == "OutOfRange" and refused.data["ship"] == "a1"
    assert "beyond its last band" in refused.summary


# ---- phase 9: a system knocked out, a target gone -----------------------------------------


def test_phase_9_tells_a_knocked_out_system_from_a_target_gone():
    a, b, state = _two_ships(design("A", fcs=2, systems=[BEAM1]))
    state.ships["b2"] = gone = ship("b2", "b", design("B"), x=2, y=10)
    gone.destroyed = True
    # A target destroyed before the shot: the order passes phase 1, phase 9 refuses it.
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "b2")])})
    (refused,) = [e for e in events if e.kind == "fire-refused"]
    assert refused.summary == (
        "A1 beam-a at b2: target b2 was destroyed or is gone before the shot (rules §6)"
    )
    assert "error" not in refused.data and refused.data["ship"] == "a1"
    # Fire chosen in phase 9 (ship_fire) for a system knocked out before it fired.
    a.systems["beam-a"].status = Status.DAMAGED
    # Fresh script for turn 2 (an exhausted script shows 3s: the initiative would tie forever).
    state.dice = ScriptedDice([6, 6, 1, 1])
    events = play_turn(
        state, {}, ship_fire=lambda _s, s: [FireIntent("beam-a", "b1")] if s is a else []
    )
    (refused,) = [e for e in events if e.kind == "fire-refused"]
    assert refused.summary == "A1 beam-a at b1: beam-a was damaged before it fired (rules §11)"


# ---- the §3 notation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("movement", "message"),
    [
        (
            "+" + "9" * 5000,
            "A1: order '+" + "9" * 39 + "…': number '+" + "9" * 11 + "…' too "
            "long (at most 3 digits) (rules §3)",
        ),
        (
            "9" * 5000 + "B",
            "A1: order '" + "9" * 40 + "…': number '" + "9" * 12 + "…' too "
            "long (at most 3 digits) (rules §3)",
        ),
        ("1234", "A1: order '1234': number '1234' too long (at most 3 digits) (rules §3)"),
        ("\u0661B", "A1: order '\u0661B': unreadable part '\u0661B' (rules §3)"),
        ("+\u0663", "A1: order '+\u0663': unreadable part '+\u0663' (rules §3)"),
        (None, "A1: movement order None is not text in the notation of rules §3"),
        (7, "A1: movement order 7 is not text in the notation of rules §3"),
    ],
)
def test_unreadable_movement_orders_raise_illegal_order(movement, message):
    a, b, state = _two_ships(design("A", systems=[BEAM1]))
    got = _refused_in_phase_1(state, {"a1": ShipOrders(movement)}, IllegalOrder, "§3")
    assert got == message


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": None}, "seed None"),
        ({"seed": 1.5}, "seed 1.5"),
        ({"seed": 1, "max_turns": 0}, "max_turns 0"),
        ({"seed": 1, "max_turns": -3}, "max_turns -3"),
    ],
)
def test_resolve_battle_refuses_an_unreplayable_seed_or_no_turns(kwargs, message):
    a = ship("a1", "a", design("A", systems=[BEAM1]))
    b = ship("b1", "b", design("B", systems=[BEAM1]))
    with pytest.raises(ValueError, match=message):
        resolve_battle([a], [b], **kwargs)
