"""Epic-scale special abilities (seed 004): exact values from the seed."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.rules.dice import Dice
from battles.systems.epic import (
    ABILITIES,
    RESOLVERS,
    AbilityError,
    TransportFull,
    UnknownAbility,
    armour_breaker_save,
    aura_applies,
    bound_characters,
    camouflage_visibility,
    close_defence,
    cover_penalty,
    d6_success,
    elite_reroll,
    embark_costs,
    energy_shields,
    energy_shields_odds,
    flyer_shot,
    forward_observer,
    hq_sacrifice,
    psychic_save,
    regenerate_shields,
    resolve,
    structure_damage,
    transport_load,
)

F = Fraction


def test_shields_against_ap0_hits_do_nothing_while_one_stands():
    result = energy_shields(shields=2, hits=[0, 0, 0, -1])
    assert (result.shields_left, result.shields_destroyed, result.hits_on_base) == (2, 0, ())


def test_shields_against_ap1_hits_each_destroys_one_shield_instead():
    one = energy_shields(shields=2, hits=[1])
    assert (one.shields_left, one.hits_on_base) == (1, ())
    three = energy_shields(shields=2, hits=[1, 1, 1])
    assert (three.shields_left, three.shields_destroyed, three.hits_on_base) == (0, 2, (1,))
    mixed = energy_shields(shields=1, hits=[0, 2, 0])
    assert mixed.hits_on_base == (0,)  # the AP 0 hit after the shield fell reaches the base


@pytest.mark.parametrize("n", range(6))
def test_two_shields_against_n_certain_ap1_hits(n):
    odds = energy_shields_odds(shields=2, shots=n, to_hit=1, ap=1)
    assert odds["hits_on_base"] == {max(0, n - 2): 1}
    assert odds["shields_left"] == {max(0, 2 - n): 1}
    ap0 = energy_shields_odds(shields=2, shots=n, to_hit=1, ap=0)
    assert ap0["hits_on_base"] == {0: 1} and ap0["psychic_save_4plus"] == 1


def test_two_shields_against_three_shots_at_4plus():
    odds = energy_shields_odds(shields=2, shots=3, to_hit=4, ap=1)
    # hits ~ B(3, 1/2): 0: 1/8, 1: 3/8, 2: 3/8, 3: 1/8
    assert odds["hits_on_base"] == {0: F(7, 8), 1: F(1, 8)}
    assert odds["shields_left"] == {0: F(1, 2), 1: F(3, 8), 2: F(1, 8)}
    assert odds["psychic_save_4plus"] == F(1, 2)


def test_d6_targets_and_the_7plus_reading():
    assert [d6_success(t) for t in (2, 4, 6, 7, 8, 9, 10)] == [
        F(5, 6), F(1, 2), F(1, 6), F(1, 12), F(1, 18), F(1, 36), 0,
    ]  # fmt: skip


def test_close_defence():
    inter = close_defence(dr=2, mode="interception", target_class=1)
    assert inter["p_hit"] == F(1, 12)
    assert inter["hits"] == {0: F(121, 144), 1: F(22, 144), 2: F(1, 144)}
    assert close_defence(dr=1, mode="counter-charge")["p_hit"] == F(1, 6)
    assert close_defence(dr=3, target_class=3)["hits"] == {0: 1}


def test_elite_reroll_one_die_per_roll():
    one = elite_reroll(dice=1, target=4)
    assert one["with_reroll"] == {0: F(1, 4), 1: F(3, 4)}
    two = elite_reroll(dice=2, target=4)
    assert two["with_reroll"] == {0: F(1, 8), 1: F(3, 8), 2: F(1, 2)}
    assert two["mean_with"] == F(11, 8) and two["mean_without"] == 1


def test_saves_structure_armour_breaker_psychic():
    assert structure_damage(save=4, ap=1) == F(2, 3)  # 5+ to save
    assert structure_damage(save=3, ap=0) == F(1, 3)
    assert structure_damage(save=6, ap=1) == 1
    assert armour_breaker_save(save=4) == F(1, 4)  # twice 4+
    assert armour_breaker_save(save=3) == F(4, 9)
    assert armour_breaker_save(save=5) == F(1, 3)  # worse than 4+: no re-roll
    assert psychic_save(save=4) == F(1, 2)


def test_cover_auras_camouflage():
    assert cover_penalty(penalty=2, reduces_cover=True) == 1
    assert cover_penalty(penalty=0, reduces_cover=True) == 0
    assert cover_penalty(penalty=2, ignores_cover=True) == 0
    assert aura_applies(ability="charismatic", distance_cm=12)
    assert not aura_applies(ability="elite-aura", distance_cm=12)
    assert aura_applies(ability="elite-aura", distance_cm=11.5, detachment_class=2)
    assert not aura_applies(ability="elite-aura", distance_cm=5, detachment_class=3)
    assert not aura_applies(ability="leadership", distance_cm=5, detachment_class=5)
    hidden = camouflage_visibility(distance_cm=30, penalty_terrain=True)
    assert (hidden.state, hidden.p_visible) == ("hidden", 0)
    assert camouflage_visibility(
        distance_cm=30, penalty_terrain=True, fired_this_turn=True
    ).p_visible == F(1, 2)
    assert camouflage_visibility(distance_cm=25, penalty_terrain=True).state == "visible"
    assert (
        camouflage_visibility(distance_cm=60, penalty_terrain=True, in_assault=True).state
        == "visible"
    )
    assert camouflage_visibility(distance_cm=60, penalty_terrain=False).state == "visible"


def test_transport_capacity_and_embark_costs():
    assert transport_load(capacity=4, infantry=4) == 4
    with pytest.raises(TransportFull, match="5 places needed"):
        transport_load(capacity=4, infantry=5)
    with pytest.raises(AbilityError, match="walkers"):
        transport_load(capacity=4, walkers=1)
    assert transport_load(capacity=6, infantry=1, walkers=2, characters=1) == 5
    assert transport_load(capacity=6, characters=2) == 1
    assert embark_costs(embarking=3) == {
        "per_embarking_base": 5,
        "per_disembarking_base": 0,
        "transport": 5,
    }
    assert embark_costs(embarking=1, disembarking=2)["transport"] == 10
    assert embark_costs(embarking=1, flying_or_class4=True)["transport"] == 0
    with pytest.raises(AbilityError, match="supporting_fire"):
        embark_costs(embarking=1, supporting_fire=True)


def test_flyers_forward_observers_hq_bound_characters():
    shot = flyer_shot(distance_cm=30, shooter_altitude="ground", target_altitude="high")
    assert shot == {"allowed": False, "distance_cm": 55, "to_hit_modifier": -1}
    aa = flyer_shot(distance_cm=30, target_altitude="low", aa=True)
    assert aa == {"allowed": True, "distance_cm": 30, "to_hit_modifier": 0}
    assert (
        flyer_shot(distance_cm=30, shooter_altitude="high", target_altitude="high")["distance_cm"]
        == 30
    )
    fo = forward_observer(artillery_shots=2, off_table_shots=1)
    assert fo["p_off_table_happens"] == F(2, 3)
    assert (
        fo["scatter_off_table_cm"][7] == F(1, 6) and sum(fo["scatter_off_table_cm"].values()) == 1
    )
    with pytest.raises(AbilityError, match="off_table_shots"):
        forward_observer(artillery_shots=3, off_table_shots=1)
    assert hq_sacrifice(in_assault=False, same_class=True, distance_cm=6)
    assert not hq_sacrifice(in_assault=True, same_class=True, distance_cm=1)
    assert bound_characters(count=2, character_class=2, detachment_class=2)
    with pytest.raises(AbilityError, match="at most 2"):
        bound_characters(count=3)


def test_every_ability_is_data_and_every_resolver_is_reachable():
    assert len(ABILITIES) == 23
    lost = [a.id for a in ABILITIES.values() if not a.named_in_seed]
    assert lost == [
        "indirect-fire", "structure-damage", "armour-breaker", "ignores-cover",
        "elite-aura", "leadership", "reduces-cover",
    ]  # fmt: skip
    assert {a.resolver for a in ABILITIES.values() if a.resolver} == set(RESOLVERS)


def test_resolve_by_id_and_bad_input():
    assert resolve("energy-shields", {"shields": 2, "shots": 3, "to_hit": 4, "ap": 1})[
        "hits_on_base"
    ] == {
        "0": "7/8",
        "1": "1/8",
    }
    assert resolve("reduces-cover", {"penalty": 2}) == 1
    with pytest.raises(UnknownAbility, match="'force-field'"):
        resolve("force-field", {})
    with pytest.raises(AbilityError, match="unknown colour"):
        resolve("camouflage", {"colour": "green"})
    with pytest.raises(AbilityError, match="shields"):
        resolve("energy-shields", {"shields": "two", "shots": 1})
    with pytest.raises(AbilityError, match="missing"):
        resolve("energy-shields", {"shots": 1})
    with pytest.raises(AbilityError, match="changes no number"):
        resolve("turret", {})
    with pytest.raises(AbilityError, match="shots"):
        resolve("energy-shields", {"shields": 2, "shots": 10_000})


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 20))
def test_shield_repair_same_seed_same_log(seed, lost):
    a, b = Dice(seed), Dice(seed)
    assert regenerate_shields(a, destroyed=lost) == regenerate_shields(b, destroyed=lost)
    assert a.transcript() == b.transcript() and len(a.log) == lost


def test_monte_carlo_agrees_with_exact_shield_odds():
    exact = energy_shields_odds(shields=2, shots=4, to_hit=4, ap=1)["hits_on_base"]
    dice = Dice("epic-mc")
    n = 3000
    counts: dict[int, int] = {}
    for _ in range(n):
        hits = sum(1 for f in dice.roll(4, "shot") if f >= 4)
        through = energy_shields(shields=2, hits=[1] * hits).hits_on_base
        counts[len(through)] = counts.get(len(through), 0) + 1
    for k, p in exact.items():
        p = float(p)
        assert abs(counts.get(k, 0) / n - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 1e-9, k
    repaired = sum(regenerate_shields(dice, destroyed=2) for _ in range(n))
    assert abs(repaired / (2 * n) - 0.5) <= 4 * (0.25 / (2 * n)) ** 0.5
