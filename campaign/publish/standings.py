"""Standings of the baked site, counted from the battles it publishes (no query)."""

from __future__ import annotations

from typing import Any

from battles.models import Battle
from campaign.publish.rows import BattleRows


def standings(
    battles: list[Battle], rows: BattleRows, public_fleet_ids: set[int], factions: dict[int, Any]
) -> list[dict[str, Any]]:
    """Per faction: battles fought, won, lost, and units destroyed or captured.

    ``rows`` holds the battles' sides and units (:class:`campaign.publish.rows.BattleRows`);
    ``factions`` maps a faction id to its ``Faction``. Only units the public may see count
    (their fleet in ``public_fleet_ids``, or no fleet at all: a station's light units, the
    units of other game systems): a hidden fleet's losses are its own secret. Rows are
    ``{"faction", "fought", "won", "lost", "units_lost"}``, by wins, fewest losses, name.
    """
    counted = public_fleet_ids | {None}
    table: dict[int, dict[str, Any]] = {}
    for battle in battles:
        sides = rows.sides.get(battle.pk, ())
        winners = {s.faction_id for s in sides if s.is_winner}
        if battle.winner_id:
            winners.add(battle.winner_id)
        for side in sides:
            row = table.setdefault(
                side.faction_id,
                {"faction": factions[side.faction_id], "fought": 0, "won": 0, "lost": 0,
                 "units_lost": 0},
            )  # fmt: skip
            row["fought"] += 1
            if side.faction_id in winners:
                row["won"] += 1
            elif winners:
                row["lost"] += 1
            row["units_lost"] += sum(
                1
                for fate, fleet in rows.lost.get(side.pk, ())
                if fate in ("destroyed", "captured") and fleet in counted
            )
    return sorted(table.values(), key=lambda r: (-r["won"], r["lost"], r["faction"].name))
