"""Starfinder GM action tokens (seed 001): exact values worked out by hand from the seed."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.systems.sf_tokens import (
    ACTIONS,
    SYSTEMS,
    CrewOutOfRange,
    GMShip,
    IllegalAction,
    TierOutOfRange,
    TokenRulesError,
    UnknownAction,
    available_actions,
    basic_modifier,
    boost,
    check_odds,
    check_table,
    divert_points,
    new_ship,
    next_round,
    rebalance,
    rebalance_evenly,
    set_state,
    spend,
    token_pool,
    tokens_for_gap,
)

# Seed: "PJ - 3 ou inférieur : 1 jeton; PJ - 2 : 2; PJ - 1 : 3; PJ ou supérieur : 4".
EXPECTED_BY_GAP = dict.fromkeys(range(-20, -2), 1) | {-2: 2, -1: 3} | dict.fromkeys(range(21), 4)


@pytest.mark.parametrize("gap", range(-20, 21))
def test_pool_for_every_tier_gap_and_crew_one(gap):
    assert tokens_for_gap(gap) == EXPECTED_BY_GAP[gap]
    pc = 10
    gm = pc + gap
    if 1 <= gm <= 20:
        assert token_pool(gm, pc, 50) == EXPECTED_BY_GAP[gap]
        # "Un vaisseau ne peut jamais avoir plus de jetons que de membres d'équipage."
        assert token_pool(gm, pc, 1) == 1
        assert token_pool(gm, pc, 2) == min(2, EXPECTED_BY_GAP[gap])


def test_fractional_tiers_round_the_gap_down():
    assert token_pool("1/2", 1, 6) == 3  # gap -1/2 -> -1
    assert token_pool("1/4", 3, 6) == 1  # gap -2 3/4 -> -3
    assert token_pool(2, "1/3", 6) == 4


@pytest.mark.parametrize(
    ("args", "error", "field"),
    [
        ((0, 1, 4), TierOutOfRange, "gm_tier"),
        ((21, 1, 4), TierOutOfRange, "gm_tier"),
        ((1, "x", 4), TierOutOfRange, "pc_tier"),
        ((1, None, 4), TierOutOfRange, "pc_tier"),
        ((1, 1, 0), CrewOutOfRange, "crew"),
        ((1, 1, "6"), CrewOutOfRange, "crew"),
        ((1, 1, True), CrewOutOfRange, "crew"),
    ],
)
def test_bad_tiers_and_crews_name_the_field(args, error, field):
    with pytest.raises(error, match=field):
        token_pool(*args)
    with pytest.raises(TierOutOfRange, match="tier_gap"):
        tokens_for_gap(21)


def test_check_odds_with_and_without_tokens():
    # d20 + 7 >= 15: faces 8..20 = 13/20; +5: faces 3..20 = 9/10; +2: faces 6..20 = 3/4.
    assert check_odds(7, 15) == Fraction(13, 20)
    assert check_odds(12, 15) == Fraction(9, 10)
    assert check_odds(9, 15) == Fraction(3, 4)
    assert check_odds(7, 15, disadvantage=True) == Fraction(169, 400)
    assert check_odds(30, 15) == 1 and check_odds(-10, 15) == 0


def ship(**kw):
    base = {"name": "Raider", "tier": 6, "pc_tier": 6, "crew": 6}
    return new_ship(**(base | kw))


def test_a_round_basic_boosts_and_advanced_actions():
    s = ship(bonuses={"gunnery": 7})
    assert s.tokens == 4
    spend(s, "full-power")
    boost(s, "all")  # +2 to every check of this ship this round (O-1)
    boost(s, "one")
    table = {row.check: row for row in check_table(s, 15)}
    assert table["gunnery"].modifier == 9  # 7 + 2
    assert table["gunnery"].now == Fraction(3, 4)
    assert table["gunnery"].plus_five == 1  # d20 + 14 >= 15 on every face
    assert table["gunnery"].plus_two is None  # +2 to all is bought once a round
    assert s.tokens == 1
    spend(s, "broadside")
    assert s.tokens == 0
    with pytest.raises(IllegalAction, match="no token left"):
        spend(s, "manoeuvre")
    next_round(s)
    assert (s.round, s.tokens, s.boost_all) == (2, 4, False)


def test_tier_limits_posts_and_unknown_actions():
    low = ship(tier=5, pc_tier=5)
    with pytest.raises(IllegalAction, match="needs tier 6"):
        spend(low, "full-power")
    high = ship(tier=12, pc_tier=12)
    spend(high, "audacious-gambit")
    spend(high, "amplified-countermeasures")
    spend(high, "precise-targeting")
    no_science = ship(posts=["pilot", "gunner", "engineer"])
    with pytest.raises(IllegalAction, match="science post is not crewed"):
        spend(no_science, "target-system")
    with pytest.raises(UnknownAction):
        spend(no_science, "overpower")  # "Suralimentation" is removed for GM ships
    with pytest.raises(UnknownAction):
        spend(no_science, 3)
    assert {a.min_tier for a in ACTIONS.values()} == {1, 6, 12}


def test_glitching_has_no_effect():
    s = ship(bonuses={"piloting": 4})
    set_state(s, "engines", "glitching")
    spend(s, "manoeuvre")
    assert basic_modifier(s, "piloting") == 4


def test_malfunctioning_blocks_that_system_and_maintain_integrity_costs_one_more():
    s = ship()
    set_state(s, "engines", "malfunctioning")
    with pytest.raises(IllegalAction, match="engines is malfunctioning"):
        spend(s, "manoeuvre")
    spend(s, "maintain-integrity", system="engines")
    assert s.tokens == 3
    assert spend(s, "manoeuvre").cost == 2  # "coûtent 1 jeton de plus"
    assert s.tokens == 1
    next_round(s)
    assert s.state("engines") == "malfunctioning"
    with pytest.raises(IllegalAction):
        spend(s, "manoeuvre")


def test_malfunctioning_weapons_affect_one_arc():
    s = ship()
    set_state(s, "weapons-forward", "malfunctioning")
    with pytest.raises(IllegalAction, match="weapons-forward"):
        spend(s, "fire-at-will", arc="forward")
    spend(s, "fire-at-will", arc="aft")


def test_life_support_and_power_core_effects_on_basic_actions():
    s = ship(bonuses={"gunnery": 5})
    set_state(s, "life-support", "malfunctioning")
    with pytest.raises(IllegalAction, match="life support"):
        boost(s, "one")
    assert basic_modifier(s, "gunnery") == 5
    set_state(s, "power-core", "malfunctioning")
    assert basic_modifier(s, "gunnery") == 3  # reactor: -2 to basic actions
    set_state(s, "life-support", "wrecked")
    assert basic_modifier(s, "gunnery") == 1  # -2 more, stacking with the reactor
    assert all(row.plus_five is None for row in check_table(s, 10))


def test_wrecked_system_forbids_its_basic_action_and_a_wrecked_core_every_advanced_one():
    s = ship()
    set_state(s, "engines", "wrecked")
    assert basic_modifier(s, "piloting") is None
    assert check_table(s, 10)[0].now == 0
    set_state(s, "power-core", "wrecked")
    assert not any(a.allowed for a in available_actions(s) if a.id != "maintain-integrity")
    with pytest.raises(IllegalAction, match="power core is wrecked"):
        spend(s, "target-system")


def test_maintaining_a_wrecked_system_burns_a_token_for_good():
    s = ship()
    set_state(s, "power-core", "wrecked")
    spend(s, "maintain-integrity", system="power-core")
    spend(s, "target-system")  # works for the rest of the round, at the normal cost
    assert s.tokens == 2
    next_round(s)
    assert s.pool == 3 and s.tokens == 3  # the burnt token is gone
    assert s.state("power-core") == "malfunctioning"  # "redeviendra défaillant"


def test_state_round_trips_and_bad_state_is_refused():
    s = ship()
    spend(s, "stunt")
    set_state(s, "sensors", "malfunctioning")
    assert GMShip.from_dict(s.to_dict()) == s
    for bad in (
        None,
        {"tier": 3},
        {**s.to_dict(), "tokens": 9},
        {**s.to_dict(), "states": {"hull": "wrecked"}},
    ):
        with pytest.raises(TokenRulesError):
            GMShip.from_dict(bad)


ACTION_IDS = [*ACTIONS, "boost-one", "boost-all", "next-round", "crit"]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 20),
    st.integers(1, 20),
    st.integers(1, 8),
    st.lists(st.tuples(st.sampled_from(ACTION_IDS), st.integers(0, 9)), max_size=25),
)
def test_any_sequence_keeps_tokens_within_the_pool_and_replays(tier, pc_tier, crew, steps):
    def play():
        s = new_ship(name="X", tier=tier, pc_tier=pc_tier, crew=crew)
        for action, k in steps:
            try:
                if action == "next-round":
                    next_round(s)
                elif action == "boost-one":
                    boost(s, "one")
                elif action == "boost-all":
                    boost(s, "all")
                elif action == "crit":
                    set_state(s, SYSTEMS[k % len(SYSTEMS)], ("malfunctioning", "wrecked")[k % 2])
                else:
                    spend(s, action, system=SYSTEMS[k % len(SYSTEMS)])
            except IllegalAction:
                pass
            assert 0 <= s.tokens <= s.pool <= 4
        return s

    first, second = play(), play()
    assert first.to_dict() == second.to_dict()
    assert GMShip.from_dict(first.to_dict()) == first


def test_divert_and_rebalance_shields():
    assert divert_points(150) == 7 and divert_points(19) == 0  # 5 % of the PCU, rounded down
    current = {"forward": 10, "aft": 4, "port": 3, "starboard": 3}
    assert rebalance(current, {"forward": 14, "aft": 2, "port": 2, "starboard": 2}) == {
        "forward": 14, "aft": 2, "port": 2, "starboard": 2,
    }  # fmt: skip  # 2 is 10 % of 20
    with pytest.raises(TokenRulesError, match="new.aft: 1 is under 10 % of 20"):
        rebalance(current, {"forward": 15, "aft": 1, "port": 2, "starboard": 2})
    with pytest.raises(TokenRulesError, match="adds up to 19"):
        rebalance(current, {"forward": 13, "aft": 2, "port": 2, "starboard": 2})
    assert rebalance_evenly({"forward": 10, "aft": 3}) == {
        "forward": 4,
        "aft": 3,
        "port": 3,
        "starboard": 3,
    }
