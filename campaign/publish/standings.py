"""Standings of the baked site, counted from the battles it publishes (no query)."""

from __future__ import annotations

from typing import Any

from battles.models import Battle


def standings(battles: list[Battle], public_fleet_ids: set[int]) -> list[dict[str, Any]]:
    """Per faction: battles fought, won, lost, and units destroyed or captured.

    Only units the public may see count (their fleet in ``public_fleet_ids``, or no fleet
    at all: a station's light units): a hidden fleet's losses are its own secret. Rows are
    ``{"faction", "fought", "won", "lost", "units_lost"}``, by wins, fewest losses, name.
    """
    from battles.reports import unit_fleet_id

    rows: dict[int, dict[str, Any]] = {}
    for battle in battles:
        winners = {s.faction_id for s in battle.sides.all() if s.is_winner}
        if battle.winner_id:
            winners.add(battle.winner_id)
        for side in battle.sides.all():
            row = rows.setdefault(
                side.faction_id,
                {"faction": side.faction, "fought": 0, "won": 0, "lost": 0, "units_lost": 0},
            )
            row["fought"] += 1
            if side.faction_id in winners:
                row["won"] += 1
            elif winners:
                row["lost"] += 1
            row["units_lost"] += sum(
                1
                for p in side.participants.all()
                if p.fate in ("destroyed", "captured")
                and unit_fleet_id(p) in public_fleet_ids | {None}
            ) + sum(1 for u in side.system_units.all() if u.fate in ("destroyed", "captured"))
    return sorted(rows.values(), key=lambda r: (-r["won"], r["lost"], r["faction"].name))
