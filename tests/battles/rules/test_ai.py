"""Auto-resolve tactics and whole battles (the battles.rules.ai package)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.rules.ai import (
    crew_plan,
    crippled,
    preferred_range,
    resolve_battle,
    ship_fire,
    ship_orders,
    steer,
)
from battles.rules.dice import Dice
from battles.rules.movement import validate_orders
from battles.rules.ships import ShipState, Status
from battles.rules.turn import BattleState, LightUnit
from bench.fleets import phalon_68th, qatzrin_5th

# The repository root, not tests.conftest.ROOT: a child process imports this module (see
# test_replay_is_identical_in_another_process) without Django, which tests/conftest.py needs.
ROOT = Path(__file__).resolve().parents[3]


def design(name, *, mass=40, thrust=4, hull=(3, 3, 3, 3), fcs=2, systems=(), armour=(2,)):
    return {
        "format": "admiralty-design/1",
        "name": name,
        "faction": "test",
        "mass": mass,
        "thrust": thrust,
        "hull": {"boxes": sum(hull), "rows": list(hull)},
        "armour": {"layers": list(armour)},
        "screens": 0,
        "fire_controls": fcs,
        "command": ["bridge", "life-support", "core"],
        "systems": list(systems),
    }


def beam(sid, weapon="beam-1", arcs=("FP", "F", "FS")):
    return {"id": sid, "kind": "weapon", "weapon": weapon, "arcs": list(arcs)}


ESCORT = design(
    "Escort", systems=[beam("beam-a"), beam("beam-b", "beam-2"), {"id": "pd-a", "kind": "pd"}]
)
CRUISER = design(
    "Cruiser",
    mass=80,
    hull=(5, 5, 5, 5),
    fcs=3,
    systems=[beam("beam-a"), beam("beam-b"), beam("beam-c", "beam-2", ("F", "FS", "AS"))],
)


def fleet(side, *designs):
    return [
        ShipState.from_design(d, ship_id=f"{side}{i}", side=side, name=f"{d['name']} {side}{i}")
        for i, d in enumerate(designs, 1)
    ]


def small_battle(seed, **kw):
    return resolve_battle(
        fleet("a", ESCORT, ESCORT, CRUISER), fleet("b", CRUISER, ESCORT, ESCORT), seed=seed, **kw
    )


def test_a_battle_ends_and_names_a_result():
    result = small_battle(11)
    assert result.reason in {"destruction", "withdrawal", "turn-limit", "mutual"}
    assert 1 <= result.turns <= 20
    assert result.events[-1].kind == "result"
    if result.reason in ("destruction", "withdrawal"):
        loser = "b" if result.winner == "a" else "a"
        assert all(s.out_of_action for s in result.ships.values() if s.side == loser)
    json.dumps(result.log_dicts())


def test_same_seed_same_log_and_different_seed_different_log():
    first, again, other = small_battle(5), small_battle(5), small_battle(6)
    assert json.dumps(first.log_dicts()) == json.dumps(again.log_dicts())
    assert json.dumps(first.log_dicts()) != json.dumps(other.log_dicts())


def test_the_result_gives_every_die_and_where_it_falls_among_the_events():
    result = small_battle(5)
    replayed = Dice(5)
    # The same seed asked the same questions: the rolls are the dice's own log.
    assert [(r.sides, r.result) for r in result.rolls] == [
        (r.sides, replayed.die(r.sides, r.purpose)) for r in result.rolls
    ]
    assert len(result.roll_marks) == len(result.events)
    assert result.roll_marks == sorted(result.roll_marks)
    assert result.roll_marks[0] == 0  # deployment rolls nothing
    assert result.roll_marks[-1] <= len(result.rolls)
    # Initiative events give only sums: the four dice just before each add up to them.
    for k, event in enumerate(result.events):
        if event.kind == "initiative-roll":
            dice = result.rolls[result.roll_marks[k] - 4 : result.roll_marks[k]]
            a, b = event.data["rolls"].values()
            assert (dice[0].result + dice[1].result, dice[2].result + dice[3].result) == (a, b)
    order = list(result.interleaved())
    assert [x for x, _, _ in order if x is not None] == result.events
    assert [r for _, r, _ in order if r is not None] == result.rolls
    assert small_battle(5).roll_marks == result.roll_marks


def test_fleets_passed_in_are_not_mutated():
    a, b = fleet("a", ESCORT), fleet("b", ESCORT)
    before = [s.notation() for s in a + b]
    resolve_battle(a, b, seed=1)
    assert [s.notation() for s in a + b] == before


def test_a_fleet_that_starts_crippled_withdraws():
    battered = [
        ShipState.from_design(ESCORT, ship_id=f"b{i}", side="b", hull_lost=9) for i in (1, 2)
    ]
    result = resolve_battle(fleet("a", ESCORT), battered, seed=4)
    assert (result.winner, result.reason, result.turns) == ("a", "withdrawal", 1)
    assert all(result.ships[f"b{i}"].withdrawn for i in (1, 2))


def test_turn_limit_is_respected():
    result = small_battle(2, max_turns=2)
    assert result.turns <= 2
    if result.reason == "turn-limit":
        assert set(result.strength) == {"a", "b"}


def test_replay_is_identical_in_another_process():
    # Set and dict ordering must not leak hash randomisation into the log.
    code = (
        "import hashlib, json, sys; sys.path.insert(0, '.');"
        "from tests.battles.rules.test_ai import small_battle;"
        "print(hashlib.sha256(json.dumps(small_battle(9).log_dicts()).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": str(h)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for h in (1, 2)
    }
    assert len(digests) == 1


def test_bad_fleets_are_refused():
    with pytest.raises(ValueError, match="at least one ship"):
        resolve_battle([], fleet("b", ESCORT), seed=1)
    with pytest.raises(ValueError, match="both fleets are side"):
        resolve_battle(fleet("a", ESCORT), fleet("a", ESCORT), seed=1)
    mixed = fleet("a", ESCORT) + fleet("c", ESCORT)
    with pytest.raises(ValueError, match="mixes sides"):
        resolve_battle(mixed, fleet("b", ESCORT), seed=1)


def state_of(*ships):
    return BattleState(ships={s.ship_id: s for s in ships}, sides=("a", "b"), dice=Dice(1))


def place(ship, x, y, heading=0, speed=6):
    ship.x, ship.y, ship.heading, ship.speed = x, y, heading, speed
    return ship


def test_preferred_range_is_the_closest_first_band():
    (escort,) = fleet("a", ESCORT)
    assert preferred_range(escort) == 12
    torp = design(
        "T", systems=[{"id": "t", "kind": "weapon", "weapon": "plasma-torpedo", "arcs": ["F"]}]
    )
    assert preferred_range(fleet("a", torp)[0]) == 6


@settings(max_examples=200)
@given(
    thrust=st.integers(1, 8),
    speed=st.integers(0, 24),
    heading=st.integers(0, 5),
    gx=st.floats(-100, 100),
    gy=st.floats(-100, 100),
)
def test_steering_orders_are_always_legal(thrust, speed, heading, gx, gy):
    (s,) = fleet("a", {**ESCORT, "thrust": thrust})
    place(s, 0, 0, heading, speed)
    orders = steer(s, (gx, gy), 12)
    plan = validate_orders(orders, ship=s.name, thrust=thrust, speed=speed)
    assert plan.thrust_used <= thrust


def test_steering_turns_towards_the_goal():
    (s,) = fleet("a", ESCORT)
    place(s, 0, 0, heading=0, speed=6)
    orders = steer(s, (30, 0), 12)  # goal abeam to starboard
    assert [str(m) for m in orders.manoeuvres] == ["2T"]
    orders = steer(s, (0, 50), 12)  # dead ahead, 38 mu to close: speed up by the thrust
    assert orders.manoeuvres == () and orders.speed_change == 4


def test_a_crippled_ship_is_ordered_out():
    (a1,) = fleet("a", ESCORT)
    (b1,) = fleet("b", ESCORT)
    place(a1, 0, 0)
    place(b1, 0, 30, heading=3)
    state = state_of(a1, b1)
    assert not ship_orders(state, a1).withdraw
    a1.cross_off_hull(a1.hull_max - a1.hull_max // 3)
    assert crippled(a1)
    assert ship_orders(state, a1).withdraw


def test_fire_focuses_on_the_most_damaged_reachable_target():
    (a1,) = fleet("a", CRUISER)
    b1, b2, b3 = fleet("b", ESCORT, ESCORT, ESCORT)
    place(a1, 0, 0)
    place(b1, 0, 10)
    place(b2, 5, 10)
    place(b3, 0, -10)  # aft: out of every arc
    b2.cross_off_hull(3)
    b3.cross_off_hull(9)
    state = state_of(a1, b1, b2, b3)
    intents = ship_fire(state, a1)
    assert intents and {i.target for i in intents} == {"b2"}
    assert {i.system for i in intents} == {"beam-a", "beam-b", "beam-c"}


def test_fire_uses_one_fire_control_per_target():
    (a1,) = fleet("a", {**CRUISER, "fire_controls": 1})
    b1, b2 = fleet("b", ESCORT, ESCORT)
    place(a1, 0, 0)
    place(b1, -5, 10)  # port-fore/bow: beams a, b reach; beam-c does not (F, FS, AS)
    place(b2, 20, 0)  # starboard: only beam-c reaches
    state = state_of(a1, b1, b2)
    intents = ship_fire(state, a1)
    assert {i.target for i in intents} == {"b1"}


def test_crew_goes_to_command_systems_first_and_stays_for_boarders():
    (a1,) = fleet("a", CRUISER)
    a1.systems["beam-a"].status = Status.DAMAGED
    a1.systems["core"].status = Status.DAMAGED
    assert list(crew_plan(state_of(a1), a1)) == ["core", "beam-a"]
    a1.boarders = ["marines"]
    assert sum(crew_plan(state_of(a1), a1).values()) == max(0, a1.crew_left - 3)


CATALOGUE = ROOT / "factions" / "catalogue"


@pytest.mark.skipif(not (CATALOGUE / "phalon.json").exists(), reason="catalogue absent")
def test_bench_fleets_fight_to_a_result():
    result = resolve_battle(qatzrin_5th(), phalon_68th(), seed=3)
    assert result.reason in {"destruction", "withdrawal", "turn-limit", "mutual"}
    assert any(e.kind == "launch" for e in result.events)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_any_seed_keeps_states_sane_and_the_dead_silent(seed):
    result = resolve_battle(fleet("a", ESCORT, CRUISER), fleet("b", CRUISER, ESCORT), seed=seed)
    for s in result.ships.values():
        assert s.hull_left >= 0 and s.armour_left >= 0 and 0 <= s.crew_left <= s.crew_max
    gone: set[str] = set()
    for event in result.events:
        if event.kind == "damage-destroyed":
            gone.add(event.data["ship"])
        elif event.kind in ("fire", "move", "orders", "launch"):
            assert event.data["ship"] not in gone, event


def test_the_engine_imports_without_the_web_framework():
    code = (
        "import sys; sys.modules['django'] = None;"
        "import battles.rules.ai, battles.rules.turn, battles.rules.movement,"
        " battles.rules.sensors, bench.fleets; print('ok')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "ok"


def test_idle_class_1_weapons_shoot_at_attached_fighters():
    (a1,) = fleet("a", ESCORT)
    (b1,) = fleet("b", ESCORT)
    place(a1, 0, 0)
    place(b1, 0, 80)  # out of reach: no ship target
    state = state_of(a1, b1)
    state.light_units["f"] = LightUnit("f", "b", "fighter-heavy", 4, 50.0, 0, 0, attached_to="a1")
    intents = ship_fire(state, a1)
    assert [(i.system, i.target) for i in intents] == [("beam-a", "f")]  # beam-2 is no PD


@pytest.mark.skipif(not CATALOGUE.exists(), reason="catalogue absent")
def test_every_catalogue_pair_fights_with_legal_orders_only():
    slugs = sorted(p.stem for p in CATALOGUE.glob("*.json"))
    fleets = {}
    for slug in slugs:
        classes = json.loads((CATALOGUE / f"{slug}.json").read_text(encoding="utf-8"))["classes"]
        fleets[slug] = classes
    for i, a in enumerate(slugs):
        for b in slugs[i:]:
            side_a = [
                ShipState.from_design(c, ship_id=f"x{n}", side="x") for n, c in enumerate(fleets[a])
            ]
            side_b = [
                ShipState.from_design(c, ship_id=f"y{n}", side="y") for n, c in enumerate(fleets[b])
            ]
            result = resolve_battle(side_a, side_b, seed=1)
            refused = [e.summary for e in result.events if e.kind == "fire-refused"]
            assert refused == [], (a, b, refused[:3])


def test_a_carrier_launches_its_pd_platforms_to_escort_itself():
    pd_bay = {"id": "bay-p", "kind": "bay", "squadron": {"unit": "gunboat", "variant": "pd"}}
    fighter_bay = {"id": "bay-f", "kind": "bay", "squadron": {"unit": "interceptor"}}
    tubes = [{"id": f"tube-{i}", "kind": "launch-tube"} for i in (1, 2)]
    carrier = design("Carrier", fcs=3, systems=[pd_bay, fighter_bay, *tubes, beam("b1")])
    (a,) = fleet("a", carrier)
    (b,) = fleet("b", ESCORT)
    state = state_of(place(a, 0, 0), place(b, 0, 40, heading=3))
    orders = ship_orders(state, a)
    assert sorted(orders.launches) == [("bay-f", "b1"), ("bay-p", "a1")]
