"""Starfinder GM action tokens (seed 001): pure Python, no Django.

- :mod:`.pool` — the token pool by tier gap and crew, exact d20 check odds;
- :mod:`.tracker` — a GM ship through the rounds (spend, boost, critical states);
- :mod:`.data` — the advanced actions, removed actions and critical states as data.

Imports: the rules engine's dice and errors (``battles.rules``) only; no Django, no other
game system (import-linter, pyproject.toml).
"""

from battles.systems.sf_tokens.data import (
    ACTIONS,
    BASIC_CHECKS,
    CRITICAL_STATES,
    POSTS,
    REMOVED_ACTIONS,
    SYSTEMS,
)
from battles.systems.sf_tokens.errors import (
    CrewOutOfRange,
    IllegalAction,
    TierOutOfRange,
    TokenRulesError,
    UnknownAction,
    UnknownSystem,
)
from battles.systems.sf_tokens.pool import check_odds, parse_tier, token_pool, tokens_for_gap
from battles.systems.sf_tokens.shields import divert_points, rebalance, rebalance_evenly
from battles.systems.sf_tokens.tracker import (
    GMShip,
    available_actions,
    basic_modifier,
    boost,
    check_table,
    new_ship,
    next_round,
    set_state,
    spend,
)

__all__ = [
    "ACTIONS",
    "BASIC_CHECKS",
    "CRITICAL_STATES",
    "POSTS",
    "REMOVED_ACTIONS",
    "SYSTEMS",
    "CrewOutOfRange",
    "GMShip",
    "IllegalAction",
    "TierOutOfRange",
    "TokenRulesError",
    "UnknownAction",
    "UnknownSystem",
    "available_actions",
    "basic_modifier",
    "boost",
    "check_odds",
    "check_table",
    "divert_points",
    "new_ship",
    "next_round",
    "parse_tier",
    "rebalance",
    "rebalance_evenly",
    "set_state",
    "spend",
    "token_pool",
    "tokens_for_gap",
]
