"""Movement orders (rules §3): notation, validation, execution."""

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from battles.rules.errors import IllegalOrder, RulesError
from battles.rules.movement import (
    Manoeuvre,
    Orders,
    execute,
    parse_orders,
    validate_orders,
)

R3 = math.sqrt(3) / 2


def approx_xy(xy):
    return pytest.approx(xy, abs=1e-9)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("+3, 1B, 2T, 18", "+3, 1B, 2T, 18"),
        ("+3,1b,2t,18", "+3, 1B, 2T, 18"),
        ("+3 1P 2S 18", "+3, 1B, 2T, 18"),
        ("2T", "2T"),
        ("-4", "-4"),
        ("18", "18"),
        ("", "+0"),
        ("+0", "+0"),
        ("+0, 1B", "1B"),
        ("+0, 18", "+0, 18"),
        ("1B, 18", "1B, 18"),
    ],
)
def test_orders_parse_to_a_canonical_string(text, canonical):
    orders = Orders.parse(text)
    assert str(orders) == canonical
    assert Orders.parse(canonical) == orders
    assert eval(repr(orders)) == orders  # noqa: S307 - the repr rebuilds the value


def test_seed_example_parses_into_its_parts():
    orders = Orders.parse("+3, 1B, 2T, 18")
    assert orders == Orders(3, (Manoeuvre(1, "B"), Manoeuvre(2, "T")), 18)
    assert orders.arcs == 3


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1B, +3", "must come first"),
        ("18, 1B", "after the final speed"),
        ("18, 19", "second final speed"),
        ("1B, 1B, 1T", "at most two"),
        ("0T", "turns no arc"),
        ("+3, 1X", "unreadable"),
    ],
)
def test_unreadable_orders_name_ship_order_and_section(text, fragment):
    with pytest.raises(IllegalOrder) as error:
        Orders.parse(text, ship="Ra'am")
    message = str(error.value)
    assert fragment in message
    assert "Ra'am" in message and repr(text) in message and "§3" in message


@st.composite
def orders_values(draw):
    change = draw(st.one_of(st.none(), st.integers(-30, 30)))
    steps = draw(
        st.lists(st.builds(Manoeuvre, st.integers(1, 6), st.sampled_from("BT")), max_size=2)
    )
    final = draw(st.one_of(st.none(), st.integers(0, 40)))
    return Orders(change, tuple(steps), final)


@given(orders_values())
def test_any_orders_round_trip(orders):
    assert Orders.parse(str(orders)) == orders
    assert eval(repr(orders)) == orders  # noqa: S307


def test_seed_thrust_6_example_validates_and_moves_as_described():
    # Thrust 6 at speed 15: +3, one arc to port, 9 mu, two arcs to starboard, 9 mu; next
    # turn's speed 18 (seed 000, movement section).
    plan = parse_orders("+3, 1B, 2T, 18", ship="Tzayad", thrust=6, speed=15)
    assert (plan.distance, plan.end_speed, plan.thrust_used) == (18, 18, 6)
    moved = execute(plan, position=(0.0, 0.0), heading=0)
    # Heading 0 turns 1 arc to port (heading 5), 9 mu; then 2 to starboard (heading 1), 9 mu.
    assert moved.path[1] == approx_xy((-9 * R3, 4.5))
    assert moved.position == approx_xy((0.0, 9.0))
    assert moved.heading == 1
    assert moved.speed == 18


def test_one_step_of_n_arcs_turns_half_before_and_the_rest_after_the_first_half():
    plan = parse_orders("3T", ship="Barak", thrust=6, speed=12)
    moved = execute(plan, position=(10.0, 10.0), heading=0)
    # floor(3/2)=1 arc: heading 1, 6 mu; 2 more arcs: heading 3, 6 mu.
    assert moved.path[1] == approx_xy((10 + 6 * R3, 13.0))
    assert moved.position == approx_xy((10 + 6 * R3, 7.0))
    assert moved.heading == 3


def test_a_single_arc_is_made_at_the_midpoint():
    plan = parse_orders("1B", ship="Sa'ar", thrust=2, speed=10)
    moved = execute(plan, position=(0.0, 0.0), heading=0)
    assert moved.path[1] == approx_xy((0.0, 5.0))
    assert moved.position == approx_xy((-5 * R3, 7.5))
    assert moved.heading == 5


def test_no_order_keeps_speed_and_heading():
    plan = parse_orders("", ship="Sabra", thrust=4, speed=7)
    moved = execute(plan, position=(0.0, 0.0), heading=3)
    assert moved.position == approx_xy((0.0, -7.0))
    assert (moved.heading, moved.speed, plan.thrust_used) == (3, 7, 0)


def test_speed_above_24_moves_in_full_but_ends_at_24():
    plan = parse_orders("+4", ship="Sa'ar", thrust=6, speed=22)
    assert (plan.distance, plan.end_speed) == (26, 24)
    assert parse_orders("+4, 24", ship="Sa'ar", thrust=6, speed=22).distance == 26


def test_final_speed_alone_sets_the_change():
    plan = parse_orders("12", ship="Sa'ar", thrust=6, speed=15)
    assert (plan.speed_change, plan.distance) == (-3, 12)


@pytest.mark.parametrize(
    ("text", "thrust", "speed", "fragment"),
    [
        ("+5", 4, 10, "exceeds thrust 4"),
        ("3B, +1", 4, 10, "must come first"),
        ("+3, 2T", 4, 10, "exceed thrust 4"),
        ("-11", 6, 10, "no reversing"),
        ("+4, 26", 6, 22, "capped at 24"),
        ("+3, 17", 6, 15, "does not match"),
        ("2T", 1, 10, "2 arcs + |+0| speed exceed thrust 1"),
        ("+2, 3B", 4, 10, "3 arcs + |+2| speed exceed thrust 4"),
    ],
)
def test_illegal_orders_are_refused_with_the_rule(text, thrust, speed, fragment):
    with pytest.raises(IllegalOrder) as error:
        parse_orders(text, ship="Kineret", thrust=thrust, speed=speed)
    assert fragment in str(error.value)
    assert "Kineret" in str(error.value) and "§3" in str(error.value)


def test_d3_default_allows_the_seeds_thrust_4_example():
    """D-3 default: the shared budget alone. Seed §3: « Avec une propulsion de 4, un
    Vaisseau peut se réorienter de 2 arcs bâbords et augmenter sa vitesse de 2, ou de 3 arcs
    et augmenter sa vitesse de 1 » — both are legal, each spending the whole thrust."""
    assert parse_orders("+1, 3B", ship="K", thrust=4, speed=10).thrust_used == 4
    assert parse_orders("+2, 2B", ship="K", thrust=4, speed=10).thrust_used == 4
    # « Une manœuvre de 5 arcs » (seed, exemple 2) needs thrust 5 with no speed change.
    assert parse_orders("5T", ship="K", thrust=5, speed=10).thrust_used == 5


def test_d3_option_half_thrust_cap_refuses_the_example():
    """D-3 option ``half_thrust_turn_cap``: « autant d'arcs que sa valeur de Propulsion/2
    (Exception ; Une Propulsion de 1 permet malgré tout une réorientation d'un arc) »."""
    with pytest.raises(IllegalOrder, match="turning cap of 2 for thrust 4 \\(D-3\\)"):
        parse_orders("+1, 3B", ship="K", thrust=4, speed=10, half_thrust_turn_cap=True)
    with pytest.raises(IllegalOrder, match="turning cap of 1 for thrust 3"):
        parse_orders("2T", ship="K", thrust=3, speed=10, half_thrust_turn_cap=True)
    plan = parse_orders("1T", ship="K", thrust=1, speed=5, half_thrust_turn_cap=True)
    assert plan.thrust_used == 1  # the thrust-1 exception


def test_thrust_1_may_still_turn_one_arc():
    assert parse_orders("1T", ship="K", thrust=1, speed=5).thrust_used == 1


def test_stationary_roll_needs_no_drive():
    plan = parse_orders("1T", ship="Hulk", thrust=0, speed=0, drive_working=False)
    assert plan.roll and plan.thrust_used == 1
    moved = execute(plan, position=(3.0, 4.0), heading=5)
    assert moved.position == approx_xy((3.0, 4.0))
    assert moved.heading == 0


def test_drive_out_forbids_everything_but_the_roll():
    with pytest.raises(IllegalOrder, match="drive is out"):
        parse_orders("1T", ship="Hulk", thrust=4, speed=6, drive_working=False)
    with pytest.raises(IllegalOrder, match="drive is out"):
        parse_orders("2T", ship="Hulk", thrust=4, speed=0, drive_working=False)
    assert parse_orders("", ship="Hulk", thrust=4, speed=6, drive_working=False).distance == 6


def test_bridge_out_forbids_manoeuvres():
    with pytest.raises(IllegalOrder, match="§4"):
        parse_orders("1T", ship="Ra'am", thrust=4, speed=6, bridge_working=False)
    assert parse_orders("+2", ship="Ra'am", thrust=4, speed=6, bridge_working=False)


def test_illegal_order_is_a_rules_error():
    assert issubclass(IllegalOrder, RulesError)


@given(
    thrust=st.integers(1, 8),
    speed=st.integers(0, 24),
    change=st.integers(-8, 8),
    arcs=st.integers(0, 4),
    side=st.sampled_from("BT"),
    heading=st.integers(0, 5),
)
def test_valid_orders_travel_their_distance_and_turn_their_arcs(
    thrust, speed, change, arcs, side, heading
):
    steps = (Manoeuvre(arcs, side),) if arcs else ()
    try:
        plan = validate_orders(Orders(change, steps), ship="S", thrust=thrust, speed=speed)
    except IllegalOrder:
        plan = None
    assume(plan is not None)  # an illegal order is another test's: draw again, not a pass
    assert plan.thrust_used <= thrust
    assert 0 <= plan.end_speed <= 24
    moved = execute(plan, position=(0.0, 0.0), heading=heading)
    assert moved.heading == (heading + (arcs if side == "T" else -arcs)) % 6
    travelled = math.dist(moved.path[0], moved.path[1]) + math.dist(moved.path[1], moved.path[2])
    assert travelled == pytest.approx(plan.distance)
