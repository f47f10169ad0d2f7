"""Old home of the battle services, kept so existing imports keep working: the code now
lives in the ``battles.services`` package (issue 8: setup, fielding, resolve, record,
conclude). New code imports from ``battles.services``."""

from battles.services import (
    MAX_TURNS_LIMIT,
    BattleActionError,
    battle_record,
    battle_replay,
    battle_resolve,
    crew_lost_from_hull,
    event_rows,
)
from battles.services.fielding import field_battle as _field
from battles.services.fielding import rule_options as _options
from battles.services.resolve import craft_left_after as _craft_left

__all__ = [
    "MAX_TURNS_LIMIT",
    "BattleActionError",
    "_craft_left",
    "_field",
    "_options",
    "battle_record",
    "battle_replay",
    "battle_resolve",
    "crew_lost_from_hull",
    "event_rows",
]
