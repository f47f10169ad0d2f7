"""Damage, thresholds, countdowns, damage control, boarding (§4, §8, §9, §11–§13)."""

import pytest

from battles.rules.damage import (
    apply_hits,
    attach_vampire,
    board,
    core_explosion_hit,
    damage_control,
    emp_hits,
    lance_hit,
    repel_boarders,
    tick_countdowns,
    tick_vampires,
)
from battles.rules.dice import Dice
from battles.rules.errors import MagazineDestroyed, RulesError
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState, Status
from battles.rules.weapons import DamageType, Hit
from tests.battles.rules.test_weapons import FixedDice

P, S, X = DamageType.PENETRATING, DamageType.SEMI_PIERCING, DamageType.PIERCING

DESIGN = {
    "name": "Testbed",
    "mass": 40,
    "thrust": 4,
    "hull": {"boxes": 10, "rows": [3, 3, 2, 2]},
    "armour": {"layers": [2]},
    "fire_controls": 1,
    "systems": [
        {"id": "beam-a", "kind": "weapon", "weapon": "beam-2", "arcs": ["F"]},
        {"id": "torp-a", "kind": "weapon", "weapon": "plasma-torpedo", "magazine": "mag-a"},
        {"id": "mag-a", "kind": "magazine", "capacity": 1},
        {"id": "mpc-a", "kind": "weapon", "weapon": "mpc"},
    ],
}
# systems in SSD order: beam-a torp-a mag-a mpc-a fc-1 drive bridge life-support core (9)


def ship(**kw):
    return ShipState.from_design(DESIGN, ship_id="t1", side="a", **kw)


def hits(n, kind=P, reroll=False, damage=1):
    return [Hit(damage, kind, reroll)] * n


def test_penetrating_armour_first_rerolls_to_hull():
    s = ship()
    apply_hits(s, hits(2) + hits(1, reroll=True), Dice(0))
    assert s.armour == [0] and s.hull_rows == [2, 3, 2, 2]
    apply_hits(s, hits(1), Dice(0))
    assert s.hull_rows == [1, 3, 2, 2]


def test_semi_piercing_split_d21():
    s = ship()
    apply_hits(s, [Hit(5, S)], Dice(0))  # ceil(5/2)=3 at armour: 2 absorbed, 1 overflows
    assert s.armour == [0] and s.hull_left == 10 - 3
    s = ship()
    apply_hits(s, [Hit(3, S)], Dice(0), options=RuleOptions(semi_piercing_armour_round_up=False))
    assert s.armour == [1] and s.hull_left == 8


def test_piercing_one_to_armour_rest_to_hull():
    s = ship()
    apply_hits(s, [Hit(2, X)], Dice(0))
    assert s.armour == [1] and s.hull_left == 9
    # 1 to armour, 3 to hull: row 1 completes and costs the last armour box (§11).
    apply_hits(s, [Hit(4, X)], Dice(0))
    assert s.armour == [0] and s.hull_left == 6
    apply_hits(s, [Hit(2, X)], Dice(0))
    assert s.hull_left == 4


def test_row_completion_costs_armour_and_checks_every_system_on_6():
    s = ship(armour_lost=0)
    # beam-a fails (6), bridge fails (6) then its countdown rolls 3.
    faces = [6, 1, 1, 1, 1, 1, 6, 3, 1, 1]
    events = apply_hits(s, hits(3, reroll=True), FixedDice(faces))
    assert s.hull_rows == [0, 3, 2, 2] and s.armour == [1]
    assert s.systems["beam-a"].status is Status.DAMAGED
    assert s.systems["bridge"].status is Status.DAMAGED and s.countdowns == {"bridge": 3}
    assert s.fire_controls == 0  # bridge out: no FC (§4)
    assert [e.kind for e in events][:3] == ["hull", "row", "system"]


def test_second_row_threshold_is_5_and_damaged_systems_are_skipped():
    s = ship(hull_lost=3)
    s.systems["beam-a"].status = Status.DAMAGED
    dice = FixedDice([5, 4, 1, 1, 1, 1, 1, 1])  # 8 working systems
    apply_hits(s, hits(3, reroll=True), dice)
    assert s.systems["torp-a"].status is Status.DAMAGED
    assert s.systems["mag-a"].status is Status.WORKING
    assert len(dice.log) == 8 and all("(5+)" in r.purpose for r in dice.log)


def test_destruction_and_never_below_zero():
    s = ship()
    events = apply_hits(s, hits(50, reroll=True) + [Hit(30, X), Hit(30, S)], Dice(0))
    assert s.destroyed and s.hull_left == 0 and s.armour_left >= 0
    assert events[-1].kind == "destroyed"
    assert apply_hits(s, hits(3), Dice(0)) == []


def test_crew_follow_hull_d9():
    s = ship()
    assert s.crew_max == 2
    apply_hits(s, hits(6, reroll=True), Dice(3))
    assert s.hull_left == 4 and s.crew_left == 1


def test_countdowns():
    s = ship()
    s.systems["bridge"].status = Status.DAMAGED
    s.countdowns = {"bridge": 1, "life-support": 2}
    tick_countdowns(s, Dice(0))
    assert s.systems["bridge"].working and s.countdowns == {"life-support": 1}
    tick_countdowns(s, Dice(0))
    assert s.derelict and s.crew_left == 0 and s.out_of_action


@pytest.mark.parametrize(("face", "kind"), [(4, "core-shutdown"), (5, "core-explosion")])
def test_core_fate(face, kind):
    s = ship()
    s.countdowns = {"core": 1}
    events = tick_countdowns(s, FixedDice([face]))
    assert events[-1].kind == kind
    assert (s.dead_in_space, s.destroyed) == ((True, False) if face == 4 else (False, True))
    assert core_explosion_hit(s) == Hit(40, S)


def test_damage_control():
    s = ShipState.from_design(dict(DESIGN, mass=60), ship_id="t", side="a")
    s.systems["beam-a"].status = Status.DAMAGED
    s.systems["core"].status = Status.DAMAGED
    s.countdowns["core"] = 2
    events, used = damage_control(s, {"beam-a": 2, "core": 1}, FixedDice([5, 6]))
    assert used == 3 and s.systems["beam-a"].working and s.systems["core"].working
    assert "core" not in s.countdowns and len(events) == 2
    s.systems["beam-a"].status = Status.DAMAGED
    damage_control(s, {"beam-a": 3}, FixedDice([3]))
    assert not s.systems["beam-a"].working
    with pytest.raises(RulesError, match="crew"):
        damage_control(s, {"beam-a": 3, "torp-a": 1}, Dice(0))
    s.systems["torp-a"].status = Status.DESTROYED
    with pytest.raises(RulesError, match="damaged systems only"):
        damage_control(s, {"torp-a": 1}, Dice(0))


def test_boarding_marines_and_capture():
    s = ship(hull_lost=9)  # 1 hull box left, 2 crew but D-9 is only applied on new damage
    board(s, "marines")
    events = repel_boarders(s, FixedDice([4]))  # 2 crew → 5+; a 4 fails
    assert s.captured and not s.destroyed and s.hull_left == 0
    assert events[-1].kind == "captured"


def test_boarding_repelled_and_fusiliers():
    s = ship()
    board(s, "marines")
    repel_boarders(s, FixedDice([5]))
    assert s.boarders == [] and s.hull_left == 10
    board(s, "fusiliers")
    repel_boarders(s, FixedDice([5]), crew_available=1)  # 1 crew cannot repel fusiliers
    assert s.boarders == ["fusiliers"] and s.hull_left == 9
    s.systems["marines-x"] = type(s.systems["beam-a"])(id="marines-x", kind="marines", squads=1)
    repel_boarders(s, FixedDice([5]))  # embarked marines repel fusiliers on 5+
    assert s.boarders == []


def test_vampires():
    s = ship()
    attach_vampire(s, Dice(0))
    assert s.vampires == 1 and s.armour == [0] and s.hull_left == 10
    tick_vampires(s, Dice(0))
    assert s.hull_left == 8
    s.crew_left = 2
    damage_control(s, {"vampire": 1}, FixedDice([6]))
    assert s.vampires == 0 and tick_vampires(s, Dice(0)) == []


def test_emp_and_lance():
    s = ship()
    emp_hits(s, 2, FixedDice([1, 4, 2, 3]))  # pick beam-a, 4+ damages; pick torp-a, 3 fails
    assert s.systems["beam-a"].status is Status.DAMAGED and s.systems["torp-a"].working
    assert s.hull_left == 10 and s.armour == [2]
    lance_hit(s, "mag-a")
    assert s.systems["mag-a"].status is Status.DESTROYED
    with pytest.raises(RulesError, match="command system"):
        lance_hit(s, "core")


def test_weapon_readiness_and_magazines():
    s = ship()
    s.expend("torp-a")
    with pytest.raises(MagazineDestroyed, match="empty"):
        s.ready_weapon("torp-a")
    s = ship(systems_lost=["mag-a"])
    with pytest.raises(MagazineDestroyed, match=r"t1: torp-a .*mag-a is destroyed \(§8\)"):
        s.ready_weapon("torp-a")
    s = ship()
    s.expend("mpc-a")
    with pytest.raises(RulesError, match="expended"):
        s.ready_weapon("mpc-a")
    s.systems["beam-a"].status = Status.DESTROYED
    with pytest.raises(RulesError, match="destroyed"):
        s.ready_weapon("beam-a")
