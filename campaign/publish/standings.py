"""Standings of the baked site, counted from the battles it publishes (no query) by the
campaign page's own count (``battles.standings.tally``); its victory points, tonnage and
charts per turn as the public reads them on the standings page (:func:`public_scoreboard`)."""

from __future__ import annotations

from typing import Any

from battles.models import Battle
from battles.scoring.table import Scoreboard, scoreboard
from battles.standings import StandingRows, standing_order, tally
from campaign.publish.rows import BattleRows


def standings(
    battles: list[Battle], rows: BattleRows, public_fleet_ids: set[int], factions: dict[int, Any]
) -> list[dict[str, Any]]:
    """Per faction: battles fought, won, lost, ships and light units destroyed or captured.

    ``rows`` holds the battles' sides and units (:class:`campaign.publish.rows.BattleRows`);
    ``factions`` maps a faction id to its ``Faction``. Only units the public may see count
    (their fleet in ``public_fleet_ids``, or no fleet at all: a station's light units, the
    units of other game systems): a hidden fleet's losses are its own secret. Rows are
    ``{"faction", "fought", "won", "lost", "ships_lost", "light_units_lost"}``, by wins,
    fewest losses, name.
    """
    counted = StandingRows(
        [(b.pk, b.winner_id) for b in battles],
        {b.pk: [(s.pk, s.faction_id) for s in rows.sides.get(b.pk, ())] for b in battles},
        rows.lost,
    )
    table = [
        {"faction": factions[s.faction_id], **vars(s)}
        for s in tally(counted, public_fleet_ids).values()
    ]
    for row in table:
        del row["faction_id"]
    return sorted(table, key=lambda r: standing_order(r["won"], r["lost"], r["faction"].name))


def public_scoreboard(campaign: Any) -> Scoreboard:
    """``campaign``'s standings by victory points as the public reads them
    (``battles.scoring.table.scoreboard`` with no user): every award, the factions' lines
    but no player's (user names are not published), and the tonnage and strength of public
    fleets only — a hidden fleet's ships count neither in the mass its faction lost nor in
    the mass its enemies destroyed nor in its faction's strength. About nine queries a
    campaign, whatever its battles."""
    return scoreboard(campaign, user=None)
