"""The engine's fast paths give exactly what the plain definitions give.

Each shortcut taken for speed (the 1 000-battle benchmark, ``make bench``) is checked here against
the slower, obvious code it stands in for, so a later change to one side shows up.
"""

import math
import os
import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import battles.rules
from battles.rules.ai import resolve_battle
from battles.rules.dice import Dice, Roll
from battles.rules.errors import IllegalOrder, RulesError
from battles.rules.options import RuleOptions
from battles.rules.phases import orders as phase_1
from battles.rules.sensors import (
    ALL_ARC_BITS,
    ARC_BITS,
    ARCS,
    FireOrder,
    allocate_fire_control,
    arc_mask,
    distance,
    sight_line,
    target_arcs,
)
from battles.rules.ships import ShipState, Status
from battles.rules.turn import (
    BattleState,
    FireIntent,
    ShipOrders,
    _fire_control_suffices,
    play_turn,
)
from battles.rules.weapons import DamageType, Hit, Volley, _hit, fire
from bench.fleets import phalon_68th, qatzrin_5th
from bench.mieska import mieska_battle

coords = st.floats(min_value=-200, max_value=200, allow_nan=False)


@given(coords, coords, st.integers(0, 5), coords, coords)
def test_sight_line_is_distance_and_target_arcs(x, y, heading, tx, ty):
    assert sight_line(x, y, heading, tx, ty) == (
        distance((x, y), (tx, ty)),
        target_arcs((x, y), heading, (tx, ty)),
    )


@pytest.mark.parametrize("heading", range(6))
@pytest.mark.parametrize("degrees", range(0, 360, 15))
def test_sight_line_on_and_off_arc_lines(heading, degrees):
    # Every 30°: arc centres and the lines between arcs (a target there is in two arcs).
    tx, ty = 3.0 + 12 * math.sin(math.radians(degrees)), 4.0 + 12 * math.cos(math.radians(degrees))
    assert sight_line(3.0, 4.0, heading, tx, ty) == (
        distance((3.0, 4.0), (tx, ty)),
        target_arcs((3.0, 4.0), heading, (tx, ty)),
    )
    assert sight_line(3.0, 4.0, heading, 3.0, 4.0) == (0.0, ARCS)


def test_arc_mask():
    assert arc_mask(ARCS) == ALL_ARC_BITS
    assert arc_mask(("F", "A")) == ARC_BITS["F"] | ARC_BITS["A"]
    # An unknown code is never seen, and a weapon listing it is not "all round".
    assert arc_mask((*ARCS, "X")) != ALL_ARC_BITS
    assert arc_mask(("X",)) & ALL_ARC_BITS == 0


def test_roll_is_an_immutable_record():
    roll = Roll("beam-1 vs Ra'am, die 2", 6, 4)
    assert (roll.purpose, roll.sides, roll.result) == ("beam-1 vs Ra'am, die 2", 6, 4)
    assert repr(roll) == 'Roll(purpose="beam-1 vs Ra\'am, die 2", sides=6, result=4)'
    assert roll.notation() == "beam-1 vs Ra'am, die 2: d6=4"
    with pytest.raises(AttributeError):
        roll.result = 5  # type: ignore[misc]


def test_volleys_compare_by_every_field_and_hits_are_shared():
    hits = (Hit(1, DamageType.PENETRATING), Hit(1, DamageType.PENETRATING, True))
    plain = Volley("beam-2", 7.5, 1, "ship", 2, hits, value=2)
    assert Volley("beam-2", 7.5, 1, "ship", 2, hits) != plain  # every field counts
    assert plain.damage == 2 and plain.kills == plain.systems == 0
    assert _hit(1, DamageType.PENETRATING, True) == hits[1]
    assert _hit(1, DamageType.PENETRATING, True) is _hit(1, DamageType.PENETRATING, True)


def test_beam_volley_matches_its_dice():
    dice = Dice(7)
    volley = fire("beam-1", dice, range_mu=10, screen=0, target_name="hulk")
    assert volley.dice == 3 and len(dice.log) >= 3
    assert all(type(r) is Roll for r in dice.log)
    assert volley.value == volley.damage == sum(h.damage for h in volley.hits)


SHIP = {
    "format": "admiralty-design/1",
    "name": "Probe",
    "mass": 40,
    "thrust": 4,
    "hull": {"boxes": 8},
    "fire_controls": 2,
    "screens": 2,
    "systems": [{"id": "veil", "kind": "vapour-veil"}],
}


@pytest.mark.parametrize(
    "knocked",
    [(), ("fc-1",), ("fc-1", "fc-2"), ("bridge",), ("screen-2",), ("drive",), ("veil",)],
)
@pytest.mark.parametrize("dead", [False, True])
def test_ship_counts_match_the_system_lists(knocked, dead):
    ship = ShipState.from_design(SHIP, ship_id="p1", side="a")
    for sid in knocked:
        ship.systems[sid].status = Status.DAMAGED
    ship.dead_in_space = dead
    fcs = 0 if not ship.bridge_working or dead else len(ship.systems_of("fc"))
    assert ship.fire_controls == fcs
    screens = 0 if dead else min(3, len(ship.systems_of("screen")))
    assert ship.screen_level == screens
    for kind in ("fc", "screen", "vapour-veil", "drive", "bridge", "weapon"):
        assert ship.working_count(kind) == len(ship.systems_of(kind))
    assert len(ship.systems_of("fc", working=False)) == 2
    drive_ok = ship.systems["drive"].status is Status.WORKING
    assert ship.thrust == (4 if drive_ok and not dead else 0)


arc_lists = st.lists(st.sampled_from(ARCS), min_size=0, max_size=6, unique=True).map(tuple)
# What a bearing gives: one arc, two on a line, all six at the same point.
seen_arcs = st.sampled_from(
    [(a,) for a in ARCS] + [(ARCS[i], ARCS[(i + 1) % 6]) for i in range(6)] + [ARCS]
)
orders = st.lists(
    st.tuples(
        st.sampled_from(["beam-1", "beam-2", "lance", "pd", "pulser-short"]),
        arc_lists,
        st.sampled_from(["t1", "t2", "t3"]),
        seen_arcs,
        st.booleans(),
    ),
    max_size=6,
)


class _System:
    def __init__(self, arcs):
        self.arcs = arcs


@settings(max_examples=300)
@example(1, [("beam-1", ("A", "AP"), "t1", ("A",), False)], [], True)  # aft, thrusting
@example(2, [("lance", ARCS, "t1", ("F",), False)] * 3, [], False)  # one FC per lance
@given(
    st.integers(0, 4),
    orders,
    st.lists(st.sampled_from(["bay-a", "bay-b"]), max_size=2),
    st.booleans(),
)
def test_fire_control_shortcut_agrees_with_the_allocation(fcs, rows, launches, thrust):
    accepted = [
        (FireIntent(f"w{i}", target), _System(arcs), weapon, 5.0, target, seen, pd)
        for i, (weapon, arcs, target, seen, pd) in enumerate(rows)
    ]
    full = [
        FireOrder(f"w{i}", weapon, arcs, target, seen, point_defence=pd)
        for i, (weapon, arcs, target, seen, pd) in enumerate(rows)
    ]
    try:
        allocate_fire_control(
            ship="Probe", fire_controls=fcs, orders=full, launches=launches, used_thrust=thrust
        )
    except RulesError:
        allowed = False
    else:
        allowed = True
    assert _fire_control_suffices(fcs, accepted, launches, thrust) is allowed


# ---- phase 1: orders that write only movement -------------------------------------------


def test_movement_only_orders_pass_the_checks_they_skip(monkeypatch):
    """Phase 1 skips the fire, launch, settings and power checks for orders that
    write only movement (``orders._movement_only``). Over whole auto-resolved battles —
    the bench's larger battle (carriers, pulsers) and the Skirmish at Mieska — every order
    that takes the shortcut passes those checks when run in full, with no setting."""
    if battles.rules.COMPILED:
        # Compiled modules call each other directly, past the module attributes patched
        # here: the test runs on the plain Python engine, in a child process.
        test = f"{__file__}::test_movement_only_orders_pass_the_checks_they_skip"
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
            env={**os.environ, "ADMIRALTY_PURE_RULES": "1"},
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-3000:]
        return

    plain = phase_1._movement_only
    seen = {"shortcut": 0, "full": 0}

    def checked(ship, order):
        state = checked.state
        if plain(ship, order):
            assert phase_1._check_fire_and_launches(state, ship, order) == {}
            seen["shortcut"] += 1
        else:
            seen["full"] += 1
        return plain(ship, order)

    real_phase_orders = phase_1.phase_orders

    def phase_orders(state, orders):
        checked.state = state
        return real_phase_orders(state, orders)

    monkeypatch.setattr(phase_1, "_movement_only", checked)
    monkeypatch.setattr("battles.rules.turn.phase_orders", phase_orders)
    a, b = qatzrin_5th(), phalon_68th()
    for seed in range(6):
        resolve_battle(a, b, seed=seed, record=False)
    mieska_battle(record=False)
    assert seen["shortcut"] > 100 and seen["full"] > 100  # both paths taken


@pytest.mark.parametrize("written", [[], (), ""])
def test_falsy_settings_that_are_not_a_mapping_are_still_refused(written):
    a = ShipState.from_design(SHIP, ship_id="a1", side="a", name="A1")
    b = ShipState.from_design(SHIP, ship_id="b1", side="b", name="B1")
    b.y = 30.0
    state = BattleState(
        ships={"a1": a, "b1": b}, sides=("a", "b"), dice=Dice(1), options=RuleOptions()
    )
    with pytest.raises(IllegalOrder, match=r"^A1: settings must map system ids"):
        play_turn(state, {"a1": ShipOrders(movement="+1", settings=written)})
    assert state.turn == 0 and state.events == []
