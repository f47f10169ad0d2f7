"""Starfinder boarding (seed 003): exact values worked out by hand from the seed."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.rules.dice import Dice
from battles.systems.sf_boarding import (
    BANDS,
    BadBoardingInput,
    Party,
    PartyTooLarge,
    band_odds,
    boarding_allowed,
    boarding_attack_modifier,
    boarding_resistance,
    combine_parties,
    life_science_dc,
    max_party_size,
    pathogen_party,
    recovered,
    repel_bonus,
    resolve_boarding,
    security_modifier,
    size_modifier,
    tactical_cr,
)
from tests.battles.systems.scripted import ScriptedDice

F = Fraction


@pytest.mark.parametrize(
    ("size", "modifier"),
    [
        (1, -8),
        (9, -8),
        (10, -4),
        (19, -4),
        (20, 0),
        (49, 0),
        (50, 2),
        (79, 2),
        (80, 4),
        (100, 4),
        (101, 8),
    ],
)
def test_size_modifier_bands_are_lower_inclusive(size, modifier):
    assert size_modifier(size, 100) == modifier  # O-3


def test_party_cap_is_a_fifth_of_the_crew_or_four():
    assert [max_party_size(c) for c in (1, 6, 20, 24, 25, 100)] == [4, 4, 4, 4, 5, 20]
    Party.build(20, 3, attacker_crew=100)
    with pytest.raises(PartyTooLarge, match="party_size: 21 is more than the cap of 20"):
        Party.build(21, 3, attacker_crew=100)
    Party.build(12, 3, attacker_crew=10, cap=12)  # breaching pods may set their own cap


# Party tier 4, competent (+2), against a tier-6 ship with biometric locks (+1) and a
# competent crew (+2): RA = 9. Target crew 100. Bands by the margin d20 + mod - 9.
RA = 9
# Probabilities in BANDS order: wiped-out, repelled-with-losses, repelled, success,
# overwhelming.
HAND = {
    # size 5 (-8): mod -2, margin f - 11: f=1 -> -10; 2..6 -> -9..-5; 7..10; 11..15; 16..20
    5: (F(1, 20), F(1, 4), F(1, 5), F(1, 4), F(1, 4)),
    # size 10 (-4): mod 2, margin f - 7: 1..2 -> -6,-5; 3..6; 7..11; 12..20
    10: (0, F(1, 10), F(1, 5), F(1, 4), F(9, 20)),
    # size 20 (+0): mod 6, margin f - 3: 1..2; 3..7; 8..20
    20: (0, 0, F(1, 10), F(1, 4), F(13, 20)),
    # size 50 (+2): mod 8, margin f - 1: 1..5 success; 6..20
    50: (0, 0, 0, F(1, 4), F(3, 4)),
    # size 80 (+4): mod 10, margin f + 1: 1..3 success; 4..20
    80: (0, 0, 0, F(3, 20), F(17, 20)),
    # size 101 (+8): mod 14, margin f + 5: always
    101: (0, 0, 0, 0, F(1)),
}


@pytest.mark.parametrize("size", sorted(HAND))
def test_band_odds_for_a_party_of_each_size_band(size):
    party = Party.build(size, 4, "competent")
    ra = boarding_resistance(
        6, security=security_modifier(biometric_locks=True), training="competent"
    )
    assert ra == RA
    mod = boarding_attack_modifier(party, 100)
    assert band_odds(mod, ra) == dict(zip(BANDS, map(F, HAND[size]), strict=True))


def test_security_modifier_rounds_the_total_up():
    assert security_modifier(antipersonnel_level=4, biometric_locks=True) == 3  # 4/3 + 1
    assert security_modifier(heavy_antipersonnel_level=3) == 3  # 2 + 1
    assert security_modifier(countermeasures=2) == 1  # 2/3
    # Antipersonnel weapons count only against the first attack until reloaded.
    assert security_modifier(antipersonnel_level=6, biometric_locks=True, first_attack=False) == 1


def test_officers_training_pathogens_and_combined_parties():
    party = Party.build(6, 4, "specialised")
    assert boarding_attack_modifier(party, 30, officer_bonus=3) == 4 + 0 + 4 + 3
    assert boarding_resistance("1/2", security=1, training="elite", repel_bonus=2) == 0 + 1 + 6 + 2
    germ = pathogen_party(5)
    assert boarding_attack_modifier(germ, 1000) == 5  # size modifier +0 whatever the crew
    assert boarding_attack_modifier(germ, 1000, pathogen_weakened=True) == 1
    assert life_science_dc(5) == 17 and life_science_dc(4) == 16  # 10 + 1.5 x level
    joined = combine_parties([Party.build(6, 4, "competent"), Party.build(4, 5, "elite")])
    assert (joined.size, joined.training, joined.tier) == (10, "specialised", 4)


def test_combined_parties_use_the_mean_training_modifier_rounded_down():
    # Seed: the mean of the training modifiers, rounded down, not the named level below it.
    joined = combine_parties([Party.build(6, 4, "competent"), Party.build(4, 4, "specialised")])
    assert (joined.training_modifier, joined.size, joined.tier) == (3, 10, 4)
    # tier 4 + size 10 of 30 crew (33 %: +0) + training 3
    assert boarding_attack_modifier(joined, 30) == 7
    trio = combine_parties(
        [Party.build(2, 3, "none"), Party.build(2, 3, "competent"), Party.build(2, 3, "elite")]
    )
    assert trio.training_modifier == 2  # (0 + 2 + 6) / 3 = 2.67, rounded down
    # A combined party joining another keeps its exact mean: (3 + 6) / 2 = 4.5 -> 4.
    assert combine_parties([joined, Party.build(2, 4, "elite")]).training_modifier == 4
    assert (
        combine_parties(
            [Party.build(2, 1, "none"), Party.build(2, 1, "competent")]
        ).training_modifier
        == 1
    )


def test_neutralised_members_recovery_and_tactical_cr():
    party = Party.build(20, 1)  # 20 % of 100: size +0, modifier 1, margin = face - 11
    losses = resolve_boarding(
        ScriptedDice([1]), party, target_crew=100, resistance=12
    )  # margin -10
    assert (losses.band, losses.party_neutralised) == ("wiped-out", 20)
    third = resolve_boarding(
        ScriptedDice([4]), party, target_crew=100, resistance=12
    )  # margin -7: a third of 20
    assert (third.band, third.party_neutralised, third.critical_system) == (
        "repelled-with-losses",
        6,
        "",
    )
    big = resolve_boarding(ScriptedDice([16, 45]), party, target_crew=100, resistance=12)  # +5
    assert (big.band, big.crew_neutralised, big.critical_system) == ("overwhelming", 10, "weapons")
    chosen = resolve_boarding(
        ScriptedDice([12]), party, target_crew=100, resistance=12, chosen_system="engines"
    )
    assert (chosen.band, chosen.critical_system) == ("success", "engines")
    assert recovered(10) == 5 and recovered(10, defenders=True, infirmary=True) == 7
    assert tactical_cr(9, pcs_boarded=False) == 8  # the seed's example
    assert tactical_cr(9, pcs_boarded=True, attack_modifier=8, pcs_resistance=12) == 9
    assert tactical_cr(9, pcs_boarded=True, attack_modifier=8, pcs_resistance=23) == 7


@pytest.mark.parametrize(
    "bad", [{"size": 0}, {"size": "5"}, {"tier": "x"}, {"tier": 0}, {"training": "veteran"}]
)
def test_bad_party_input_names_the_field(bad):
    args = {"size": 4, "tier": 2, "training": "none"} | bad
    with pytest.raises(BadBoardingInput):
        Party.build(**args)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 50), st.integers(1, 20), st.integers(1, 200))
def test_same_seed_same_log(seed, size, tier, crew):
    party = Party.build(size, tier)
    runs = []
    for _ in range(2):
        dice = Dice(seed)
        result = resolve_boarding(dice, party, target_crew=crew, resistance=12)
        runs.append((result, dice.transcript()))
    assert runs[0] == runs[1]
    assert 0 <= runs[0][0].party_neutralised <= size


def test_monte_carlo_agrees_with_the_exact_band_odds():
    party = Party.build(10, 4, "competent")
    mod = boarding_attack_modifier(party, 100)
    exact = band_odds(mod, RA)
    dice = Dice("boarding-mc")
    n = 4000
    counts = dict.fromkeys(BANDS, 0)
    for _ in range(n):
        counts[resolve_boarding(dice, party, target_crew=100, resistance=RA).band] += 1
    for band in BANDS:
        p = float(exact[band])
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(counts[band] / n - p) <= 4 * sigma + 1e-9, band


def test_repelling_officer_and_the_ways_aboard():
    assert repel_bonus(5, against_all=False) == 5 and repel_bonus(5, against_all=True) == 2
    assert boarding_allowed("grappling", adjacent=True, attack_hit=True)
    assert not boarding_allowed("grappling", adjacent=False, attack_hit=True)
    assert boarding_allowed("ram", hull_damaged=True) and not boarding_allowed("ram")
    assert boarding_allowed("breaching-pod", quadrant_shields=0)
    assert not boarding_allowed("breaching-pod", quadrant_shields=1)  # no breach through shields
    with pytest.raises(BadBoardingInput, match="method"):
        boarding_allowed("teleport")
