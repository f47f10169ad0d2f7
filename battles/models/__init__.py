"""The battles app's models: a battle, its sides and participants, the dice/event log and
rendered reports (``battle``); victory points, scoring rules and fleet strength by
turn (``scoring``); turn-by-turn set-up and orders (``turn_orders``); units and
results of the other game systems (``other_games``). Django registers models through this
module, so every model of the app is imported here.

Imports: the game systems (``battles.systems``) and the rules engine's errors; factions and
the league only as foreign keys named by label (``"factions.Faction"``,
``"campaign.Campaign"``). Anything below the battle reads is allowed; never a service, play,
report, page or the API (import-linter, pyproject.toml).
"""

from battles.models.battle import (
    Battle,
    BattleAction,
    BattleSide,
    BattleSnapshot,
    Event,
    Participant,
    RecordEntry,
    Report,
)
from battles.models.other_games import SystemParticipant, SystemUnit
from battles.models.scoring import ScoringRules, StrengthSnapshot, VictoryAward
from battles.models.turn_orders import TurnOrders, TurnPlay

__all__ = [
    "Battle",
    "BattleAction",
    "BattleSide",
    "BattleSnapshot",
    "Event",
    "Participant",
    "RecordEntry",
    "Report",
    "ScoringRules",
    "StrengthSnapshot",
    "SystemParticipant",
    "SystemUnit",
    "TurnOrders",
    "TurnPlay",
    "VictoryAward",
]
