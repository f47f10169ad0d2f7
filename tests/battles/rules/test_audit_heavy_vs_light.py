"""Heavy weapons against light units, as fixed after a rules audit."""

from fractions import Fraction as F

import pytest

from battles.rules.ai import ship_orders
from battles.rules.dice import Dice
from battles.rules.errors import NoFireControl, OutOfArc, RulesError
from battles.rules.odds import odds
from battles.rules.sensors import FireOrder, allocate_fire_control
from battles.rules.turn import (
    FireIntent,
    LightUnit,
    ShipOrders,
    _phase_light_fire,
    _phase_ship_fire,
    play_turn,
)
from battles.rules.weapons import anti_ship_at_gunboats, engages_light_units, fire, get_weapon
from tests.battles.rules.test_turn import ScriptedDice, battle, design, ship
from tests.battles.rules.test_weapons import FixedDice

INITIATIVE_A = [6, 6, 1, 1]  # phase 2: side a rolls 12, side b 2


def _gun(system_id, weapon, arcs=("F", "FS", "FP")):
    return {"id": system_id, "kind": "weapon", "weapon": weapon, "arcs": list(arcs)}


# ---- A12: beam-family ship weapons fire at non-attached light units ----------------------


def test_beam_at_a_fighter_squadron_kills_one_craft_per_beam_table_hit():
    # faces 4, 5, 6 (re-roll 1), screen ignored: 1 + 1 + 2 + 0 = 4 craft
    dice = FixedDice([4, 5, 6, 1])
    v = fire("beam-1", dice, range_mu=10, screen=3, target="fighter")
    assert (v.dice, v.kills, v.value, v.screen, v.hits) == (3, 4, 4, 0, ())
    assert len(dice.log) == 4


def test_a_natural_6_rerolls_in_a_chain_against_light_units():
    v = fire("beam-3", FixedDice([6, 6, 4]), range_mu=12, target="missile")
    assert (v.dice, v.kills) == (1, 5)  # 2 + 2 + 1


def test_heavy_fighters_lose_one_craft_per_hit_too():
    v = fire("beam-2", FixedDice([6, 5, 2]), range_mu=12, target="heavy-fighter")
    assert (v.dice, v.kills) == (2, 3)  # die 1: 6 (2) re-rolled 5 (1); die 2: 2 (0)


@pytest.mark.parametrize("mode", ["pulser", "pulser-short", "pulser-medium", "pulser-long"])
def test_pulsers_in_every_mode_fire_at_fighters(mode):
    v = fire(mode, FixedDice([4] * 6), range_mu=10, target="fighter")
    assert v.kills == v.dice


def test_needle_nodule_fires_at_fighters_with_its_power_points():
    v = fire("needle-nodule", FixedDice([5, 5, 1]), range_mu=20, power_points=6, target="fighter")
    assert (v.dice, v.kills) == (3, 2)  # 2 PP per die at 13–24 mu


@pytest.mark.parametrize(
    "weapon", ["kgun-2", "lance", "plasma-torpedo", "mpc", "rocket-pack", "penetrator"]
)
def test_other_families_keep_refusing_light_units(weapon):
    assert not engages_light_units(get_weapon(weapon))
    with pytest.raises(RulesError, match="ships and gunboats"):
        fire(weapon, Dice(0), range_mu=5, target="fighter")


def test_beams_still_refuse_plasma():
    with pytest.raises(RulesError, match="ships and gunboats"):
        fire("beam-1", Dice(0), range_mu=5, target="plasma")


def test_beam_odds_against_fighters_are_the_hits_against_screen_0():
    o = odds("beam-1", range_mu=10, target="fighter")
    ship_odds = odds("beam-1", range_mu=10, screen=0)
    assert (o.value_kind, o.dice, o.screens_apply, o.mean) == ("kills", 3, False, F(12, 5))
    assert o.distribution == ship_odds.distribution and o.tail == ship_odds.tail
    # per die: 0 on 1–3 (1/2), 1 on 4–5 (1/3), a 6 is 2 or more
    assert o.distribution[0] == F(1, 8)
    assert o.distribution[1] == F(1, 4)  # 3 · 1/3 · (1/2)²
    assert o.distribution[2] == F(11, 48)  # 3 · 1/12 · 1/4 + 3 · 1/9 · 1/2
    assert odds("beam-1", range_mu=10, screen=3, target="fighter").distribution == o.distribution


def _light_duel(*guns, fcs=1, faces=(), units=()):
    a = ship("a1", "a", design("A", fcs=fcs, hull=(9, 9, 9, 9), systems=list(guns)))
    b = ship("b1", "b", design("B"), y=60)
    state = battle(a, b, dice=ScriptedDice([*INITIATIVE_A, *faces]))
    for unit_id, weapon, craft, x, y in units:
        # endurance 0: the unit cannot fly, so it stays where it is (and is spent in phase 11)
        state.light_units[unit_id] = LightUnit(unit_id, "b", weapon, craft, 0.0, x, y)
    return state


def test_phase_9_beam_kills_a_free_fighter_squadron_and_logs_it():
    state = _light_duel(
        _gun("beam-a", "beam-2"), faces=[4, 6, 5], units=[("f", "fighter-interceptor", 6, 0, 10)]
    )
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "f")])})
    fired = next(e for e in events if e.kind == "fire")
    assert (fired.phase, fired.data["dice"], fired.data["value"]) == (9, 2, 4)  # 1 + 2 + 1
    assert fired.summary.endswith("4 killed")
    losses = next(e for e in events if e.kind == "light-unit-losses")
    assert (losses.phase, losses.data) == (9, {"unit": "f", "lost": 4, "craft": 2})


def _losses(events):
    return {e.data["unit"]: e.data["craft"] for e in events if e.kind == "light-unit-losses"}


def test_several_weapons_share_one_fire_control_on_one_light_unit():
    state = _light_duel(
        _gun("beam-a", "beam-3"),
        _gun("beam-b", "beam-3"),
        faces=[4, 5],
        units=[("f", "fighter-heavy", 6, 0, 10)],
    )
    orders = [FireIntent("beam-a", "f"), FireIntent("beam-b", "f")]
    events = play_turn(state, {"a1": ShipOrders(fire=orders)})
    assert [e.data["value"] for e in events if e.kind == "fire"] == [1, 1]
    assert not [e for e in events if e.kind == "fire-refused"]
    assert _losses(events) == {"f": 4}


def test_each_light_unit_target_takes_its_own_fire_control():
    state = _light_duel(
        _gun("beam-a", "beam-3"),
        _gun("beam-b", "beam-3"),
        faces=[4],
        units=[("f", "fighter-interceptor", 6, 0, 10), ("m", "missile-salvo", 6, 2, 10)],
    )
    # Two light-unit targets need two FCs; the ship has one: refused in phase 1, before a
    # die is rolled (the FC count is known then), the state left as it was.
    orders = [FireIntent("beam-a", "f"), FireIntent("beam-b", "m")]
    with pytest.raises(NoFireControl, match="no free fire control"):
        play_turn(state, {"a1": ShipOrders(fire=orders)})
    assert state.turn == 0 and state.events == [] and state.dice.log == []
    events = play_turn(state, {"a1": ShipOrders(fire=orders[:1])})
    assert _losses(events) == {"f": 5}


def test_a_missile_salvo_loses_one_missile_per_hit():
    state = _light_duel(
        _gun("beam-a", "beam-1"), faces=[5, 5, 1], units=[("m", "missile-salvo", 6, 0, 10)]
    )
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "m")])})
    assert _losses(events) == {"m": 4}


def test_a_kinetic_gun_at_a_fighter_is_refused_in_phase_9():
    state = _light_duel(_gun("k", "kgun-2"), units=[("f", "fighter-interceptor", 6, 0, 10)])
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("k", "f")])})
    refused = next(e for e in events if e.kind == "fire-refused")
    assert "engages ships and gunboats" in refused.summary
    assert _losses(events) == {}


def test_a_light_unit_attached_to_the_ship_is_still_for_pd_only():
    # A12 covers units not attached to the firing ship: a beam-2 at a squadron on the ship
    # is refused (class-1 weapons engage it as PD, test_turn)
    state = _light_duel(_gun("beam-a", "beam-2"), fcs=2)
    state.light_units["f"] = LightUnit(
        "f", "b", "fighter-interceptor", 6, 0.0, 0, 0, target="a1", attached_to="a1"
    )
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "f")])})
    refused = next(e for e in events if e.kind == "fire-refused")
    assert "engaged only by point defence" in refused.summary
    assert not [e for e in events if e.kind == "fire"]


def test_a_light_unit_attached_to_another_ship_takes_heavy_fire():
    state = _light_duel(_gun("beam-a", "beam-2"), faces=[5, 1])
    a2 = ship("a2", "a", design("A2"), y=10)
    state.ships["a2"] = a2
    state.light_units["f"] = LightUnit(
        "f", "b", "fighter-interceptor", 6, 0.0, 0, 10, target="a2", attached_to="a2"
    )
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "f")])})
    assert [e.data["value"] for e in events if e.kind == "fire"] == [1]
    assert _losses(events) == {"f": 5}


# ---- A13: a pulser acting as PD keeps to its arcs ----------------------------------------


def _pd_order(weapon, target_arcs):
    return FireOrder("w", weapon, ("F",), "u1", target_arcs, point_defence=True)


@pytest.mark.parametrize("weapon", ["pulser", "pulser-short", "pulser-long"])
def test_fire_control_allocation_keeps_a_pulser_as_pd_to_its_arcs(weapon):
    with pytest.raises(OutOfArc, match="pulser as PD keeps to its arcs"):
        allocate_fire_control(ship="s", fire_controls=0, orders=[_pd_order(weapon, ("A",))])
    plan = allocate_fire_control(ship="s", fire_controls=0, orders=[_pd_order(weapon, ("F",))])
    assert plan.system_fc == {"w": None}


@pytest.mark.parametrize("weapon", ["beam-1", "kgun-1"])
def test_beam_1_and_kgun_1_as_pd_stay_all_round(weapon):
    plan = allocate_fire_control(ship="s", fire_controls=0, orders=[_pd_order(weapon, ("A",))])
    assert plan.system_fc == {"w": None}


def _attached_at(weapon, y, faces=()):
    state = _light_duel(_gun("w", weapon, arcs=("F",)), fcs=0)
    state.dice = ScriptedDice(faces)
    # attached to a1 but placed off the host (3 mu fore or aft), so the arc is not "all six";
    # phase 9 alone, since ship movement (phase 5) brings attached units back onto the host
    state.light_units["f"] = LightUnit(
        "f", "b", "fighter-interceptor", 6, 0.0, 0, y, target="a1", attached_to="a1"
    )
    orders = {"a1": [FireIntent("w", "f")]}
    _phase_ship_fire(state, lambda _, s: orders.get(s.ship_id, []), ["a", "b"])
    return state.events


def test_a_pulser_as_pd_fires_at_an_attached_unit_in_its_arc():
    events = _attached_at("pulser", 3.0, faces=[5])
    fired = next(e for e in events if e.kind == "fire")
    assert (fired.data["dice"], fired.data["value"]) == (1, 1)  # one die, 5+ kills one
    assert _losses(events) == {"f": 5}


def test_a_pulser_as_pd_cannot_fire_at_an_attached_unit_aft():
    events = _attached_at("pulser", -3.0)
    refused = next(e for e in events if e.kind == "fire-refused")
    assert "a pulser only in its arcs" in refused.summary
    assert not [e for e in events if e.kind == "fire"]


def test_a_beam_1_as_pd_fires_aft_at_an_attached_unit_off_the_host():
    events = _attached_at("beam-1", -3.0, faces=[5])
    fired = next(e for e in events if e.kind == "fire")
    assert (fired.data["dice"], fired.data["value"]) == (1, 1)
    assert _losses(events) == {"f": 5}


# ---- A14: fighters engage gunboats with their anti-ship weapons --------------------------


def test_interceptors_score_one_loss_per_success_against_gunboats():
    # D-20 "1DF": 1, 4, 5, 6, 6, 3 → 0 + 1 + 1 + 1 + 1 + 0; a 6 is one loss and no re-roll
    dice = FixedDice([1, 4, 5, 6, 6, 3])
    v = anti_ship_at_gunboats("fighter-interceptor", dice, count=6, target_name="g")
    assert (v.dice, v.kills, v.value, v.target) == (6, 4, 4, "gunboat")
    assert len(dice.log) == 6
    assert dice.log[0].purpose == "fighter-interceptor vs g (anti-ship), die 1"


def test_heavy_fighters_score_the_beam_table_hits_against_gunboats():
    v = anti_ship_at_gunboats("fighter-heavy", FixedDice([6, 4, 3, 6]), count=2)
    assert (v.dice, v.kills) == (4, 5)  # 2 + 1 + 0 + 2, no re-roll


@pytest.mark.parametrize(
    ("weapon", "dice", "kills"),
    [
        ("fighter-long-range", 1, 1),
        ("drone", 1, 1),
        ("drone-heavy", 2, 4),
    ],
)
def test_every_fighter_type_rolls_its_catalogue_dice(weapon, dice, kills):
    v = anti_ship_at_gunboats(weapon, FixedDice([6] * dice), count=1)
    assert (v.dice, v.kills) == (dice, kills)


def test_only_fighters_and_drones_choose_anti_ship_fire():
    with pytest.raises(RulesError, match="fighters and drones"):
        anti_ship_at_gunboats("gunboat-pd", Dice(0), count=1)


def _dogfight(attacker, defender, faces, craft=6):
    a = ship("a1", "a", design("A"))
    b = ship("b1", "b", design("B"), y=80)
    state = battle(a, b, dice=ScriptedDice(faces))
    state.light_units["f"] = LightUnit("f", "a", attacker, craft, 48.0, 0, 30)
    state.light_units["g"] = LightUnit("g", "b", defender, 6, 48.0, 2, 30)
    _phase_light_fire(state)
    return state


def test_phase_10a_fighters_use_anti_ship_fire_on_gunboats():
    # f: 6 interceptor dice 1, 4, 5, 6, 6, 3 → 4 losses; g answers on the PD table: six 1s
    state = _dogfight("fighter-interceptor", "gunboat-assault", [1, 4, 5, 6, 6, 3] + [1] * 6)
    fights = {e.data["unit"]: e.data for e in state.events if e.kind == "dogfight"}
    assert fights["f"] == {
        "unit": "f",
        "target": "g",
        "kills": 4,
        "sub_phase": "a",
        "attack": "anti-ship",
        "dice": 6,
    }
    assert fights["g"]["kills"] == 0 and "attack" not in fights["g"]
    assert (state.light_units["g"].craft, state.light_units["f"].craft) == (2, 6)


def test_phase_10a_heavy_fighters_count_the_table_hits_on_gunboats():
    state = _dogfight("fighter-heavy", "gunboat-assault", [6, 6, 4, 1, 2, 3] + [1] * 6, craft=3)
    fight = next(e for e in state.events if e.kind == "dogfight" and e.data["unit"] == "f")
    assert (fight.data["dice"], fight.data["kills"]) == (6, 5)  # 2 + 2 + 1
    assert state.light_units["g"].craft == 1


def test_phase_10a_fighters_against_fighters_keep_the_pd_table():
    # PD table: a 6 kills 2 (the anti-ship reading would give 1)
    state = _dogfight("fighter-interceptor", "fighter-interceptor", [6] + [1] * 11)
    fight = next(e for e in state.events if e.kind == "dogfight" and e.data["unit"] == "f")
    assert fight.data["kills"] == 2 and "attack" not in fight.data
    assert state.light_units["g"].craft == 4


def test_anti_ship_fire_has_the_higher_mean_per_craft_against_gunboats():
    def mean(weapon):
        n = get_weapon(weapon).band(0).dice
        faces = [[a, b][:n] for a in range(1, 7) for b in range(1, 7)]
        total = sum(anti_ship_at_gunboats(weapon, FixedDice(f), count=1).kills for f in faces)
        return F(total, 36)

    pd_die = odds("pd", range_mu=0, target="gunboat").mean
    assert pd_die == F(1, 6)
    assert mean("fighter-interceptor") == F(1, 2) > pd_die
    assert mean("fighter-heavy") == F(4, 3) > pd_die


# ---- AI: a ship launches up to all its FCs (they are free again in phase 9) ---------------


def _carrier(fcs):
    bays = [
        {"id": f"bay-{i}", "kind": "bay", "squadron": {"unit": "interceptor"}} for i in (1, 2, 3)
    ]
    tubes = [{"id": f"tube-{i}", "kind": "launch-tube"} for i in (1, 2, 3)]
    a = ship("a1", "a", design("Carrier", fcs=fcs, systems=[*bays, *tubes]))
    b = ship("b1", "b", design("B"), y=40, heading=3)
    return a, battle(a, b)


@pytest.mark.parametrize(("fcs", "launched"), [(1, 1), (2, 2), (3, 3), (4, 3)])
def test_the_ai_launches_with_every_fire_control(fcs, launched):
    a, state = _carrier(fcs)
    orders = ship_orders(state, a)
    assert orders.launches == [(f"bay-{i}", "b1") for i in range(1, launched + 1)]
    play_turn(state, {"a1": orders})  # phase 1 accepts them: one free FC per launch
    assert sum(1 for e in state.events if e.kind == "launch") == launched
