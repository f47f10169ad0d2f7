"""Readings in the turn sequence, each under its default and its option (rules
§16): D-12 lance, D-26 gunboat range, D-30 dogfight dice, D-32/D-33 fire at blips and ECM,
D-34 phase-1 settings; fighters escort; bad orders (phase 1)."""

import pytest

from battles.rules.ai import resolve_battle, ship_fire, ship_orders
from battles.rules.errors import IllegalOrder
from battles.rules.options import RuleOptions
from battles.rules.phases.light_fire import dogfight_dice
from battles.rules.ships import ShipState
from battles.rules.turn import FireIntent, LightUnit, ShipOrders, _phase_light_fire, play_turn
from tests.battles.rules.test_turn import ScriptedDice, battle, design, ship

INITIATIVE_A = [6, 6, 1, 1]  # phase 2: side a 12, side b 2


def _gun(system_id, weapon, arcs=("F", "FS", "FP", "A", "AS", "AP")):
    return {"id": system_id, "kind": "weapon", "weapon": weapon, "arcs": list(arcs)}


def _duel(*guns, b_y=8.0, fcs=2, options=None, faces=(), b_ecm=0, b_hull=(9, 9, 9, 9)):
    a = ship("a1", "a", design("A", fcs=fcs, hull=(9, 9, 9, 9), systems=list(guns)))
    b = ship("b1", "b", design("B", hull=b_hull, ecm=b_ecm), y=b_y, heading=3)
    state = battle(a, b, dice=ScriptedDice([*INITIATIVE_A, *faces]), options=options)
    return a, b, state


def _fired(events):
    return [(e.data["system"], e.data["weapon"]) for e in events if e.kind == "fire"]


def _refused(events):
    return [e.data["reason"] for e in events if e.kind == "fire-refused"]


# ---- D-12: a lance fires alone ------------------------------------------------------------


def test_d12_default_a_lance_ordered_with_a_beam_is_refused_in_phase_1():
    """Seed §8: « Un Contrôle de tir est requis pour la Lance, aucun autre système d’armes
    ne peut être employé en même temps. »"""
    _, _, state = _duel(_gun("beam-a", "beam-2"), _gun("lance-a", "lance"))
    both = [FireIntent("beam-a", "b1"), FireIntent("lance-a", "b1")]
    with pytest.raises(IllegalOrder, match=r"^A1: lance-a \(lance\) ordered with beam-a; .*D-12"):
        play_turn(state, {"a1": ShipOrders(fire=both)})


def test_d12_default_phase_9_keeps_the_lance_and_refuses_the_rest_defence_still_defends():
    guns = (_gun("beam-a", "beam-2"), _gun("lance-a", "lance"), {"id": "pd-1", "kind": "pd"})
    _, _, state = _duel(*guns, faces=[6] * 10)
    state.light_units["f"] = LightUnit(
        "f", "b", "fighter-interceptor", 6, 0.0, 0, 1, target="a1", attached_to="a1"
    )
    both = [FireIntent("beam-a", "b1"), FireIntent("lance-a", "b1")]
    events = play_turn(state, {}, ship_fire=lambda st, s: both if s.ship_id == "a1" else [])
    assert _fired(events) == [("lance-a", "lance")]
    assert any("D-12" in r for r in _refused(events))
    assert [e.data["system"] for e in events if e.kind == "point-defence"] == ["pd-1"]


def test_d12_option_only_the_lances_fc_is_exclusive():
    options = RuleOptions(lance_exclusive=False)
    _, _, state = _duel(_gun("beam-a", "beam-2"), _gun("lance-a", "lance"), options=options)
    both = [FireIntent("beam-a", "b1"), FireIntent("lance-a", "b1")]
    events = play_turn(state, {"a1": ShipOrders(fire=both)})
    assert _fired(events) == [("beam-a", "beam-2"), ("lance-a", "lance")]


def test_d12_the_ai_fires_lances_only_when_nothing_else_reaches():
    guns = (_gun("beam-a", "beam-1"), _gun("lance-a", "lance"))
    a, _, state = _duel(*guns, b_y=8.0)

    assert [i.system for i in ship_fire(state, a)] == ["beam-a"]
    state.options = RuleOptions(lance_exclusive=False)
    assert sorted(i.system for i in ship_fire(state, a)) == ["beam-a", "lance-a"]
    a.systems["beam-a"].status = a.systems["beam-a"].status.DESTROYED
    state.options = RuleOptions()
    assert [i.system for i in ship_fire(state, a)] == ["lance-a"]


# ---- fighters escort a friendly ship -------------------------------------------------------


def test_fighters_launched_at_a_friendly_ship_escort_it():
    """Seed §2 phase 3: « Les Chasseurs dans un rayon de 3mu d’un vaisseau peuvent choisir
    d’Escorter (allié) ou de se Projeter (ennemi) = Ils se déplacent en même temps que ce
    vaisseau, sans compter leur propre mouvement. »"""
    bay = {"id": "bay-f", "kind": "bay", "squadron": {"unit": "heavy-fighter"}}
    carrier = ship("a1", "a", design("Carrier", fcs=1, systems=[bay]))
    friend = ship("a2", "a", design("Friend"), x=2)
    b = ship("b1", "b", design("B"), y=100)
    state = battle(carrier, friend, b)
    play_turn(state, {"a1": ShipOrders(launches=[("bay-f", "a2")])})
    (unit,) = state.light_units.values()
    assert (unit.weapon, unit.attached_to, unit.position) == ("fighter-heavy", "a2", (2.0, 0.0))
    endurance = unit.endurance
    play_turn(state, {"a2": ShipOrders(movement="+4")})
    assert unit.position == (state.ships["a2"].x, state.ships["a2"].y)
    assert unit.endurance == endurance  # « sans compter leur propre mouvement »


# ---- D-30 and D-26: dogfights ----------------------------------------------------------------


def test_d30_heavy_fighters_roll_their_2d6_a_craft_in_dogfights():
    """Seed §9: heavy fighter « Dégâts : 2d6 »; 6 craft → 12 PD-table dice (default), 6
    with the option."""
    assert dogfight_dice("fighter-heavy", 6, 3.0, RuleOptions()) == 12
    assert dogfight_dice("fighter-heavy", 6, 3.0, RuleOptions(dogfight_profile_dice=False)) == 6
    assert dogfight_dice("fighter-interceptor", 6, 3.0, RuleOptions()) == 6
    # PD platform « 1d6 (12mu)/ 2d6 (6mu) »
    assert dogfight_dice("gunboat-pd", 6, 5.0, RuleOptions()) == 12
    assert dogfight_dice("gunboat-pd", 6, 10.0, RuleOptions()) == 6


def _dogfight(options, faces, *, y=4.0, weapon="fighter-heavy"):
    a = ship("a1", "a", design("A", hull=(9, 9, 9, 9)))
    b = ship("b1", "b", design("B", hull=(9, 9, 9, 9)), y=80)
    state = battle(a, b, dice=ScriptedDice(faces), options=options)
    state.light_units["h"] = LightUnit("h", "a", weapon, 2, 96.0, 0, 0)
    state.light_units["f"] = LightUnit("f", "b", "fighter-interceptor", 6, 0.0, 0, y)
    _phase_light_fire(state)
    return [
        (e.data["unit"], e.data["kills"], e.data["dice"])
        for e in state.events
        if e.kind == "dogfight"
    ]


def test_d30_dogfight_both_settings_exact():
    # h: 2 heavy fighters → 4 dice 6, 6, 4, 1 → 2 + 2 + 1 + 0 = 5 kills (PD table, §10)
    assert _dogfight(RuleOptions(), [6, 6, 4, 1])[0] == ("h", 5, 4)
    # option: 2 dice 6, 6 → 4 kills
    assert _dogfight(RuleOptions(dogfight_profile_dice=False), [6, 6])[0] == ("h", 4, 2)


def test_d26_a_pd_platform_engages_fighters_at_12_mu_by_default_6_with_the_option():
    fights = _dogfight(RuleOptions(), [6, 6], y=10.0, weapon="gunboat-pd")
    assert fights[0] == ("h", 4, 2)  # 2 craft × 1d6 at 7–12 mu, 6s → 2 kills each
    fights = _dogfight(
        RuleOptions(gunboat_profile_range_vs_light=False), [6, 6], y=10.0, weapon="gunboat-pd"
    )
    assert [f for f in fights if f[0] == "h"] == []


# ---- D-32, D-33: fire at blips and ECM -------------------------------------------------------


def test_d32_default_a_blip_is_fired_at_full_effect_within_the_fcs_54_mu():
    """Seed §6: « Les contrôles de tir possèdent une portée effective de détection de
    54mu ». B at 30 mu with ECM 3 is a blip to standard sensors (24 − 18 = 6 mu)."""
    _, _, state = _duel(_gun("beam-a", "beam-1"), b_y=30.0, b_ecm=3, faces=[6, 3])
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "b1")])})
    assert _fired(events) == [("beam-a", "beam-1")]
    assert [e.data["dice"] for e in events if e.kind == "fire"] == [1]


def test_d32_option_forbids_fire_at_a_blip():
    options = RuleOptions(blip_fire="forbidden")
    _, _, state = _duel(_gun("beam-a", "beam-1"), b_y=30.0, b_ecm=3, options=options)
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "b1")])})
    assert _fired(events) == []
    (why,) = _refused(events)
    assert "a blip is no target (D-32 option)" in why and "fire reaches 6 mu" in why
    # without ECM, 20 mu is within the 24 mu of standard sensors: it fires
    _, _, state = _duel(_gun("beam-a", "beam-1"), b_y=20.0, options=options)
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "b1")])})
    assert _fired(events) == [("beam-a", "beam-1")]


def test_a_needle_nodule_fires_at_60_mu_past_the_fcs_54_by_default():
    """Seed §8: « il est donc tout à fait possible de tirer à une distance de 72mu, pour une
    dépense de 32PP » — fire is not capped at the FC's 54 mu (the reference's D-32 default
    cap is not applied, see the report). At 60 mu a die costs 16 PP: 32 PP → 2 dice."""
    _, _, state = _duel(_gun("nn", "needle-nodule"), b_y=60.0)
    state.ships["a1"].power_points = 32
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("nn", "b1", power_points=32)])})
    assert [e.data["dice"] for e in events if e.kind == "fire"] == [2]
    # D-33 option: the FC's 54 mu (ECM 0) limits fire
    options = RuleOptions(ecm_limits_fire_control=True)
    _, _, state = _duel(_gun("nn", "needle-nodule"), b_y=60.0, options=options)
    state.ships["a1"].power_points = 32
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("nn", "b1", power_points=32)])})
    (why,) = _refused(events)
    assert "fire reaches 54 mu" in why and "D-33 option" in why


def test_d33_default_ecm_does_not_shorten_fire_option_does():
    # ECM 3 at 40 mu, needle nodule (0–48 band costs 8 PP a die)
    for options, fired in (
        (RuleOptions(), True),
        (RuleOptions(ecm_limits_fire_control=True), False),
    ):
        _, _, state = _duel(_gun("nn", "needle-nodule"), b_y=40.0, b_ecm=3, options=options)
        state.ships["a1"].power_points = 8
        order = ShipOrders(fire=[FireIntent("nn", "b1", power_points=8)])
        events = play_turn(state, {"a1": order})
        assert bool(_fired(events)) is fired
        if not fired:
            assert "fire reaches 36 mu" in _refused(events)[0]  # 54 − 3 × 6


# ---- D-34: pulser modes and needle power in the phase-1 orders ---------------------------------


def test_d34_settings_written_in_phase_1_are_used_in_phase_9():
    _, _, state = _duel(_gun("p", "pulser"), b_y=8.0)
    order = ShipOrders(settings={"p": "pulser-long"}, fire=[FireIntent("p", "b1")])
    events = play_turn(state, {"a1": order})
    assert _fired(events) == [("p", "pulser-long")]
    assert [e.data.get("settings") for e in events if e.kind == "orders"] == [
        {"p": "pulser-long"},
        None,
    ]


def test_d34_the_ai_chooses_modes_in_phase_1_from_its_predicted_range():
    # A at rest accelerates +4 towards B (30 mu, at rest): predicted range 26 mu → long.
    a, b, state = _duel(_gun("p", "pulser"), b_y=30.0)
    orders = ship_orders(state, a)
    assert (str(orders.movement), orders.settings) == ("+4", {"p": "pulser-long"})
    # 20 mu: predicted 16 mu → the medium mode (2d6 to 24 mu), not the short one.
    a, b, state = _duel(_gun("p", "pulser"), b_y=20.0)
    assert ship_orders(state, a).settings == {"p": "pulser-medium"}
    # B moving away at 10 mu a turn: predicted 26 mu again → long.
    b.speed = 10
    b.heading = 0
    assert ship_orders(state, a).settings == {"p": "pulser-long"}
    state.options = RuleOptions(settings_in_orders=False)
    assert ship_orders(state, a).settings == {}


def test_d34_ai_phase_9_fire_follows_the_phase_1_mode():
    """A pulser set to short mode in phase 1 does not switch to long mode at 30 mu."""
    _, _, state = _duel(_gun("p", "pulser"), b_y=30.0)
    order = ShipOrders(settings={"p": "pulser-short"})
    events = play_turn(
        state,
        {"a1": order},
        ship_fire=lambda st, s: [FireIntent("p", "b1")] if s.ship_id == "a1" else [],
    )
    assert _fired(events) == []
    assert "beyond its last band" in _refused(events)[0]
    # the option: chosen at fire, the best mode at the measured range
    _, _, state = _duel(
        _gun("p", "pulser"), b_y=30.0, options=RuleOptions(settings_in_orders=False)
    )
    events = play_turn(
        state, {}, ship_fire=lambda st, s: [FireIntent("p", "b1")] if s.ship_id == "a1" else []
    )
    assert _fired(events) == [("p", "pulser-long")]


def test_d34_needle_power_set_in_phase_1_is_spent_even_if_it_does_not_fire():
    guns = (_gun("nn", "needle-nodule"), _gun("pen", "penetrator"))
    a, _, state = _duel(*guns, b_y=8.0)
    a.power_points, a.biomass = 6, 1
    order = ShipOrders(settings={"nn": 6})
    events = play_turn(
        state,
        {"a1": order},
        ship_fire=lambda st, s: [FireIntent("pen", "b1")] if s.ship_id == "a1" else [],
    )
    assert "3 power points per shot, 0 left" in _refused(events)[0]


def test_d34_bad_settings_are_refused_in_phase_1():
    _, _, state = _duel(_gun("p", "pulser"), _gun("nn", "needle-nodule"), _gun("b", "beam-1"))
    for settings, message in (
        ({"b": "pulser-long"}, "not a pulser or needle nodule"),
        ({"p": "beam-1"}, "no fire mode 'beam-1'"),
        ({"nn": -2}, "power points must be a whole number ≥ 0, got -2"),
        ({"nn": 2.5}, "got 2.5"),
    ):
        with pytest.raises(IllegalOrder, match=message):
            play_turn(state, {"a1": ShipOrders(settings=settings)})
    clash = ShipOrders(
        settings={"p": "pulser-long"}, fire=[FireIntent("p", "b1", mode="pulser-short")]
    )
    with pytest.raises(IllegalOrder, match="set to 'pulser-long' and ordered to fire with"):
        play_turn(state, {"a1": clash})
    assert state.turn == 0


def test_d34_resolve_battle_with_pulsers_under_both_settings_refuses_nothing():
    def fleet(side):
        d = design(
            "P", fcs=2, hull=(6, 6, 6, 6), systems=[_gun("p1", "pulser"), _gun("p2", "pulser")]
        )
        return [ShipState.from_design(d, ship_id=f"{side}{i}", side=side) for i in range(2)]

    for options in ({}, {"settings_in_orders": False}):
        result = resolve_battle(fleet("a"), fleet("b"), seed=3, max_turns=6, options=options)
        assert not [e for e in result.events if e.kind == "fire-refused"]
        assert any(e.kind == "fire" for e in result.events)


# ---- bad orders ---------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["destroyed", "withdrawn", "captured"])
def test_orders_for_a_ship_out_of_action_are_refused_naming_it(flag):
    _, b, state = _duel(_gun("beam-a", "beam-1"))
    setattr(b, flag, True)
    with pytest.raises(IllegalOrder, match=rf"^B1: orders for a ship out of action \({flag}\)"):
        play_turn(state, {"b1": ShipOrders(movement="+30, 9T")})
    assert state.turn == 0 and state.events == []


def test_orders_of_the_wrong_type_name_the_ship():
    _, _, state = _duel(_gun("beam-a", "beam-1"))
    with pytest.raises(IllegalOrder, match=r"^A1: orders must be ShipOrders, got dict"):
        play_turn(state, {"a1": {"movement": "+1"}})
    with pytest.raises(IllegalOrder, match=r"^orders must map ship ids to ShipOrders, got list"):
        play_turn(state, [ShipOrders()])
    with pytest.raises(IllegalOrder, match=r"settings must map system ids"):
        play_turn(state, {"a1": ShipOrders(settings=["p"])})


# ---- D-27: EMP projectors -------------------------------------------------------------------


def _emp_attack(options):
    a = ship("a1", "a", design("A", hull=(9, 9, 9, 9)))
    b1 = ship("b1", "b", design("B1", hull=(9, 9, 9, 9), fcs=2), y=10)
    b2 = ship("b2", "b", design("B2", hull=(9, 9, 9, 9), fcs=2), x=8, y=10)
    state = battle(a, b1, b2, dice=ScriptedDice([6, 6, 6, 6, 4, 4]), options=options)
    state.light_units["e"] = LightUnit("e", "a", "gunboat-emp", 2, 72.0, 0, 4, target="b1")
    _phase_light_fire(state)
    return [
        (e.data["target"], e.data["dice"], e.data["value"])
        for e in state.events
        if e.kind == "attack"
    ]


def test_d27_emp_default_one_die_a_craft_at_one_target():
    """« Dégâts : 1d6 »: 2 craft → 2 dice at B1 (6, 6 → 4 system checks, D-18)."""
    assert _emp_attack(RuleOptions()) == [("b1", 2, 4)]


def test_d27_option_each_projector_at_its_own_target():
    """« deux Projecteurs EMP classe 1 … pouvant cibler chacun une unité différente »: the
    second projectors roll their own 1d6 a craft at the nearest other enemy ship."""
    attacks = _emp_attack(RuleOptions(emp_dice_per_projector=True))
    assert attacks == [("b1", 2, 4), ("b2", 2, 4)]
