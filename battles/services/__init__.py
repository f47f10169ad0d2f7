"""Battle services: writes that span models (named ``<noun>_<verb>``, keyword-only), one
module per job; the names below are re-exported here.

- ``setup``: :func:`eligible_ships`, :func:`eligible_light_units`, :func:`battle_create`;
- ``fielding``: units on the engine's table (ships, carried squadrons, defences);
- ``resolve`` (with ``engine_log``): :func:`battle_resolve_preview`, :func:`battle_reseed`,
  :func:`battle_resolve`, :func:`battle_replay`, :func:`conclusion_from_engine`;
- ``record``: :func:`battle_record`, :func:`record_submit`, :func:`record_confirm`,
  :func:`record_reject`;
- ``conclude``: :func:`battle_conclude`; ``snapshot``: what it changed, kept for a reopen;
- ``reopen``: :func:`battle_reopen`, :func:`reopen_blockers`;
- ``other_games``: a battle of another game system recorded; ``forecast``: Monte-Carlo odds;
  ``intel``: the ship classes each faction has met; ``common``: the error, limits, locking.

Imports: battles' models and signals (the layers above act on them), campaign turns (repairs
released on reopen), factions, the league, campaign.core, the game systems and the rules
engine; never play, reports, pages or the API (import-linter, pyproject.toml).
"""

from battles.services.common import MAX_TURNS_LIMIT, BattleActionError, crew_lost_from_hull
from battles.services.conclude import Conclusion, UnitResult, battle_conclude
from battles.services.fielding import Fielded, field_battle
from battles.services.record import (
    battle_record,
    check_results,
    record_confirm,
    record_reject,
    record_submit,
    ship_system_ids,
)
from battles.services.reopen import REOPEN_CHECKS, battle_reopen, reopen_blockers
from battles.services.resolve import (
    ResolvePreview,
    battle_replay,
    battle_reseed,
    battle_resolve,
    battle_resolve_preview,
    conclusion_from_engine,
    event_rows,
)
from battles.services.setup import (
    SideSpec,
    battle_create,
    eligible_light_units,
    eligible_ships,
    ships_held,
    ships_held_by_battles,
)

__all__ = [
    "MAX_TURNS_LIMIT",
    "REOPEN_CHECKS",
    "BattleActionError",
    "Conclusion",
    "Fielded",
    "ResolvePreview",
    "SideSpec",
    "UnitResult",
    "battle_conclude",
    "battle_create",
    "battle_record",
    "battle_reopen",
    "battle_replay",
    "battle_reseed",
    "battle_resolve",
    "battle_resolve_preview",
    "check_results",
    "conclusion_from_engine",
    "crew_lost_from_hull",
    "eligible_light_units",
    "eligible_ships",
    "event_rows",
    "field_battle",
    "record_confirm",
    "record_reject",
    "record_submit",
    "reopen_blockers",
    "ship_system_ids",
    "ships_held",
    "ships_held_by_battles",
]
