"""The resolvers never crash on wrong types: any JSON-like junk gives a ``RulesError``
(HTTP 400 naming the field) or an answer, never a ``TypeError``/``KeyError``."""

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from battles.rules.dice import Dice
from battles.rules.errors import RulesError
from battles.systems import epic, sf_boarding, sf_tokens, swsb

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(
    ["shields", "shots", "to_hit", "ap", "dice", "target", "save", "penalty", "distance_cm",
     "capacity", "infantry", "walkers", "characters", "mode", "dr", "target_class", "count",
     "penetrating", "shooter_altitude", "target_altitude", "aa", "in_assault", "same_class"]
)  # fmt: skip


def ok_or_rules_error(fn, *args, **kwargs):
    with contextlib.suppress(RulesError):  # anything else fails the test
        fn(*args, **kwargs)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(epic.ABILITIES)), st.dictionaries(KEYS, JSON, max_size=5))
def test_epic_resolve_never_crashes(ability, params):
    ok_or_rules_error(epic.resolve, ability, params)


@settings(max_examples=60, deadline=None)
@given(JSON, JSON, JSON)
def test_swsb_fleet_turn_never_crashes(ships, attacks, initiative):
    ok_or_rules_error(swsb.fleet_turn, Dice(0), ships, attacks, initiative=initiative)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(
                ["id", "side", "rank", "hull", "defence", "split", "screen_value", "effects"]
            ),
            JSON,
        ),
        max_size=3,
    )
)
def test_swsb_ships_of_junk_never_crash(ships):
    ok_or_rules_error(swsb.fleet_turn, Dice(0), ships, [], initiative="a")


@settings(max_examples=60, deadline=None)
@given(
    JSON,
    st.dictionaries(
        st.sampled_from(
            [
                "name",
                "tier",
                "pc_tier",
                "crew",
                "posts",
                "bonuses",
                "states",
                "tokens",
                "log",
                "maintained",
            ]
        ),
        JSON,
    ),
)
def test_token_ships_of_junk_never_crash(junk, partial):
    ok_or_rules_error(sf_tokens.GMShip.from_dict, junk)
    ok_or_rules_error(
        sf_tokens.GMShip.from_dict, {"name": "X", "tier": 3, "pc_tier": 3, "crew": 4} | partial
    )
    ok_or_rules_error(sf_tokens.token_pool, junk, junk, junk)


@settings(max_examples=60, deadline=None)
@given(JSON, JSON, JSON)
def test_boarding_inputs_of_junk_never_crash(a, b, c):
    ok_or_rules_error(sf_boarding.Party.build, a, b, c)
    ok_or_rules_error(sf_boarding.size_modifier, a, b)
    ok_or_rules_error(sf_boarding.boarding_resistance, a, security=b, training=c)
    ok_or_rules_error(sf_boarding.security_modifier, antipersonnel_level=a, biometric_locks=b)
    ok_or_rules_error(
        sf_boarding.tactical_cr, a, pcs_boarded=True, attack_modifier=b, pcs_resistance=c
    )
