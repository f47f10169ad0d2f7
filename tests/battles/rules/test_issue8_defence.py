"""Scatterguns, spicules and interceptor nodules defend their own ship as
the PD or area-defence system the seed calls them equivalent to, with their own dice."""

from fractions import Fraction as F

from battles.rules.ai import resolve_battle
from battles.rules.dice import Dice
from battles.rules.odds import odds
from battles.rules.ships import ShipState
from battles.rules.turn import FireIntent, LightUnit, _phase_ship_fire
from tests.battles.rules.test_turn import ScriptedDice, battle, design, ship


def _gun(system_id, weapon):
    return {"id": system_id, "kind": "weapon", "weapon": weapon, "arcs": ["F"]}


def _defended(*guns, power=0, biomass=0, faces=(), unit=("f", "fighter-interceptor", 6, 0, 2)):
    d = design("A", hull=(9, 9, 9, 9), systems=list(guns))
    d["power"] = {"power_points": power, "biomass": biomass}
    a = ship("a1", "a", d)
    b = ship("b1", "b", design("B"), y=60)
    state = battle(a, b, dice=ScriptedDice(list(faces)))
    uid, weapon, craft, x, y = unit
    state.light_units[uid] = LightUnit(
        uid, "b", weapon, craft, 10.0, x, y, target="a1", attached_to="a1"
    )
    return state


def _phase_9(state, orders=None):
    orders = orders or {}
    start = len(state.events)
    _phase_ship_fire(state, lambda _s, s: orders.get(s.ship_id, []), ["a", "b"])
    return state.events[start:]


def _defence(events):
    return [(e.data["system"], e.data["kills"]) for e in events if e.kind == "point-defence"]


def test_spicule_defends_its_ship_as_pd_with_its_own_die_and_pays_1_biomass_3_pp():
    """Seed: « Le Spicule [Sa’vasku] est l’équivalent du Système de défense humain, il
    consomme 1 Biomasse et 3PP. C’est une arme multi-arc aux effets identiques à ceux de
    son homologue. » One die on the PD table: 6 → 2 kills."""
    state = _defended(_gun("sp", "spicule"), power=3, biomass=1, faces=[6])
    events = _phase_9(state)
    assert _defence(events) == [("sp", 2)]
    assert state.light_units["f"].craft == 4
    assert state.ships["a1"].biomass == 0
    # no PP left for a second turn's shot: it stays silent
    state.light_units["f"].craft = 6
    assert _defence(_phase_9(state)) == []


def test_spicule_mean_is_the_pd_mean():
    assert odds("spicule", range_mu=6).mean == odds("pd", range_mu=6).mean == F(2, 3)


def test_scattergun_defends_its_ship_as_area_defence_once():
    """Seed: « Le Disperseur [Kra’vak] est l’équivalent d’une Zone de défense, à ceci près
    qu’il est d’un usage unique » and « Les unités légères subissent 1d6 pertes (1d6/2
    pour une escadrille de Chasseurs lourds) ». A 5 kills 5 fighters; then it is spent."""
    state = _defended(_gun("sg", "scattergun"), faces=[5])
    assert _defence(_phase_9(state)) == [("sg", 5)]
    assert state.light_units["f"].craft == 1
    assert state.ships["a1"].systems["sg"].ammo == 0
    assert _defence(_phase_9(state)) == []


def test_scattergun_also_hits_a_unit_not_attached_within_6_mu_heavy_fighters_half():
    unit = ("h", "fighter-heavy", 6, 0, 5)
    state = _defended(_gun("sg", "scattergun"), faces=[5], unit=unit)
    state.light_units["h"].attached_to = None
    state.light_units["h"].target = "somewhere-else"
    assert _defence(_phase_9(state)) == [("sg", 3)]  # ceil(5 / 2), D-17


def test_interceptor_nodule_defends_to_12_mu():
    """Seed: « L’Intercepteur est l’équivalent Sa’vasku d’une Zone de défense … attaquant
    toute unité légère … dans un rayon de 12mu. Les unités visées subissent 1d6 pertes »."""
    unit = ("f", "fighter-interceptor", 6, 0, 11)
    state = _defended(_gun("in", "interceptor-nodule"), power=3, biomass=1, faces=[4], unit=unit)
    state.light_units["f"].attached_to = None
    assert _defence(_phase_9(state)) == [("in", 4)]
    assert state.ships["a1"].biomass == 0


def test_a_scattergun_may_be_ordered_at_a_unit_attached_to_its_ship():
    state = _defended(_gun("sg", "scattergun"), faces=[6])
    events = _phase_9(state, {"a1": [FireIntent("sg", "f")]})
    assert not [e for e in events if e.kind == "fire-refused"]
    assert [e.data["value"] for e in events if e.kind == "fire"] == [6]
    assert _defence(events) == []  # it fired once, by order


def _fighters_vs(system, seed, **power):
    if system == "pd":
        guns = [{"id": f"d{i}", "kind": "pd"} for i in (1, 2, 3)]
    else:
        guns = [_gun(f"d{i}", system) for i in (1, 2, 3)]
    # a beam too, so the target has something to fight with and does not withdraw
    d = design("T", hull=(30, 30, 30, 30), thrust=0, systems=[*guns, _gun("b", "beam-3")])
    d["power"] = power
    target = ShipState.from_design(d, ship_id="t", side="b")
    bays = [{"id": f"bay-{i}", "kind": "bay", "squadron": {"unit": "interceptor"}} for i in (1, 2)]
    tubes = [{"id": f"tube-{i}", "kind": "launch-tube"} for i in (1, 2)]
    carrier = ShipState.from_design(
        design("C", hull=(30, 30, 30, 30), fcs=2, systems=[*bays, *tubes]),
        ship_id="c",
        side="a",
    )
    result = resolve_battle([carrier], [target], seed=seed, max_turns=6)
    return sum(
        e.data["kills"]
        for e in result.events
        if e.kind == "point-defence" and e.data["ship"] == "t"
    )


def test_auto_resolve_equivalents_kill_fighters_like_pd_does():
    """The audit's case: 12 fighters against one target; 3 PD kill fighters, and now so do
    3 spicules and 3 scatterguns (before: 0 a battle). Spicules « aux effets identiques »
    roll the same dice on the same table as PD, so with the same seeds they kill exactly
    as many."""
    seeds = range(4)
    pd = [_fighters_vs("pd", s) for s in seeds]
    spicules = [_fighters_vs("spicule", s, power_points=9, biomass=9) for s in seeds]
    scatterguns = [_fighters_vs("scattergun", s) for s in seeds]
    assert spicules == pd and sum(pd) > 0
    assert all(k > 0 for k in scatterguns)


def test_dice_of_the_equivalents_are_logged_with_their_purpose():
    state = _defended(_gun("sg", "scattergun"), faces=[2])
    _phase_9(state)
    assert [r.purpose for r in state.dice.log] == ["scattergun vs f, die 1"]
    assert isinstance(state.dice, Dice)
