"""Phase-1 order checks (rules/ft-incursion.md §2 phase 1, §3, §6, §8): what the orders
alone make illegal raises a ``RulesError`` before any die is rolled and leaves the state as
it was; what only movement decides (arc, range) is a phase-9 ``fire-refused`` event."""

import pytest

from battles.rules.errors import IllegalOrder
from battles.rules.turn import FireIntent, ShipOrders, play_turn
from tests.rules.test_turn import BEAM1, ScriptedDice, battle, design, ship


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


# ---- finding 1: one volley per system per turn ------------------------------------------


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
