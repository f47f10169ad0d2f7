"""The campaign map per campaign turn on the baked site.

The league has no coordinates (``factions.Territory`` is a named station, moon, planet or
colony held by a faction), so the "map" is a table that reflows on a phone: for each
turn, every territory of the campaign's factions with its holder, the public fleets there
and the battles fought there that turn, then the fleets in transit and the battles fought
elsewhere. Pages, per language::

    <lang>/maps/<campaign>/index.html      the turns, with their state and battles
    <lang>/maps/<campaign>/turn-<n>.html   one turn (previous / next links)

A turn is every ``turns.CampaignTurn`` of the campaign and every turn number a concluded
battle names. Where fleets were:

- a closed turn: at its close, from the fleets' history (django-simple-history records
  every save of a ``Fleet``: the last record at or before ``closed_at``); a fleet with no
  history at all was bulk-created and never saved since, so its place now is its place
  then; a fleet whose first record is later did not exist yet;
- the campaign's current turn while open: where they are now;
- any other turn: not recorded, and the page says so.

Only fleets that are public now (``factions.access.visible_fleets(None)``, the builder's
``fleets``) *and* were public then are shown; holders are today's (the league keeps no
record of past holders, which the page says). Battles are the builder's (concluded).

A campaign with a star map (``campaign.starmap``) also gets the map drawn as SVG above the
table on each turn page (``campaign.starmap.svg.draw_map``) from the public's
``map_view(campaign, None, turn=…)`` — the one reading of who sees what on the map: at the
close of a closed turn, now for the open one, none for a turn not recorded.

Builder hook (``campaign.publish.builder``): :func:`prepare` once after the data is loaded
(``campaign.site_map``, ``battle.site_map``: paths relative to a language folder, or
None), :func:`bake` once per language (pages written only when their bytes change).
"""

from __future__ import annotations

import bisect
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from campaign.league.models import Campaign
from campaign.starmap.models import StarSystem
from campaign.starmap.svg import draw_map
from campaign.starmap.view import MapView, map_view
from campaign.turns.models import CampaignTurn
from factions.models import Fleet

__all__ = ["bake", "prepare"]


@dataclass
class _Turn:
    number: int
    state: str  # "closed" | "open" | "unrecorded"
    closed_at: Any = None
    battles: list = field(default_factory=list)
    path: str = ""


def prepare(baker) -> None:
    """Load the turns, the campaigns' factions and the fleets' history (three queries) and
    set the map paths. A campaign with no turn at all gets no map (``site_map`` None)."""
    campaign_ids = [c.pk for c in baker.campaigns]
    turns: dict[int, dict[int, CampaignTurn]] = defaultdict(dict)
    for row in CampaignTurn.objects.filter(campaign__in=campaign_ids).order_by("number"):
        turns[row.campaign_id][row.number] = row
    members = Campaign.factions.through.objects.filter(campaign__in=campaign_ids)
    baker.map_factions = defaultdict(set)
    for campaign_id, faction_id in members.values_list("campaign_id", "faction_id"):
        baker.map_factions[campaign_id].add(faction_id)
    history = Fleet.history.filter(id__in=[f.pk for f in baker.fleets]).order_by(
        "history_date", "history_id"
    )
    # fleet id -> [(date, territory id, shown)]: shown when public and not a deletion
    baker.map_history = defaultdict(list)
    for row in history.values_list("id", "history_date", "territory_id", "hidden", "history_type"):
        fleet_id, date, territory_id, hidden, kind = row
        baker.map_history[fleet_id].append((date, territory_id, not hidden and kind != "-"))
    baker.map_turns = {}
    baker.starmap_campaigns = set(
        StarSystem.objects.filter(campaign__in=campaign_ids)
        .values_list("campaign_id", flat=True)
        .distinct()
    )
    baker.starmap_views = {}
    for campaign in baker.campaigns:
        name = baker.campaign_names[campaign.pk]
        by_number: dict[int, _Turn] = {}
        for number, row in turns[campaign.pk].items():
            state = "closed" if row.status == CampaignTurn.Status.CLOSED else "open"
            by_number[number] = _Turn(number, state, row.closed_at)
        for battle in baker.battles_by_campaign[campaign.pk]:
            battle.site_map = None
            if battle.campaign_turn:
                turn = by_number.setdefault(
                    battle.campaign_turn, _Turn(battle.campaign_turn, "unrecorded")
                )
                turn.battles.append(battle)
                battle.site_map = f"maps/{name}/turn-{battle.campaign_turn}.html"
        for turn in by_number.values():
            turn.path = f"maps/{name}/turn-{turn.number}.html"
            if turn.state == "unrecorded" and turn.number == campaign.current_turn:
                turn.state = "open"  # the turn under way, never opened on the turn page
        baker.map_turns[campaign.pk] = [by_number[n] for n in sorted(by_number)]
        campaign.site_map = f"maps/{name}/index.html" if by_number else None


def _positions(baker, turn: _Turn) -> dict[int, int | None] | None:
    """``{fleet id: territory id or None (in transit)}`` of the public fleets during
    ``turn`` (see the module docstring), or None when not recorded."""
    if turn.state == "open":
        return {f.pk: f.territory_id for f in baker.fleets}
    if turn.state != "closed" or turn.closed_at is None:
        return None
    where = {}
    for fleet in baker.fleets:
        records = baker.map_history.get(fleet.pk)
        if not records:
            where[fleet.pk] = fleet.territory_id  # never saved since a bulk creation
            continue
        at = bisect.bisect_right([r[0] for r in records], turn.closed_at)
        if at == 0:
            continue  # created after the turn closed
        _date, territory_id, shown = records[at - 1]
        if shown:
            where[fleet.pk] = territory_id
    return where


def _rows(baker, campaign: Campaign, turn: _Turn) -> dict[str, Any]:
    positions = _positions(baker, turn)
    faction_ids = baker.map_factions.get(campaign.pk, set())
    territories = {
        t.pk: t for f in baker.factions if f.pk in faction_ids for t in f.territories.all()
    }
    fleets_at: dict[int | None, list] = defaultdict(list)
    fleets = {f.pk: f for f in baker.fleets}
    for fleet_id, territory_id in (positions or {}).items():
        fleets_at[territory_id].append(fleets[fleet_id])
    battles_at: dict[int | None, list] = defaultdict(list)
    for battle in turn.battles:
        place = battle.territory_id if battle.territory_id in territories else None
        battles_at[place].append(battle)
    factions = {f.pk: f for f in baker.factions}
    rows = [
        {
            "territory": t,
            "holder": factions.get(t.faction_id),
            "holder_path": baker.faction_paths.get(t.faction_id),
            "fleets": sorted(fleets_at.get(t.pk, []), key=lambda f: f.name),
            "battles": battles_at.get(t.pk, []),
        }
        for t in sorted(territories.values(), key=lambda t: (t.name, t.pk))
    ]
    # Public fleets at a territory of a faction outside the campaign: shown as elsewhere.
    elsewhere_fleets = [
        f for tid, fs in fleets_at.items() if tid is not None and tid not in territories for f in fs
    ]
    return {
        "rows": rows,
        "positions_known": positions is not None,
        "transit": sorted(fleets_at.get(None, []) + elsewhere_fleets, key=lambda f: f.name),
        "elsewhere": battles_at.get(None, []),
    }


def _public_map(baker, campaign: Campaign, turn: _Turn) -> MapView | None:
    """The public's star map of ``turn`` (once for every language), or None: no map, or
    a turn whose positions were not recorded."""
    if campaign.pk not in baker.starmap_campaigns or turn.state not in ("open", "closed"):
        return None
    key = (campaign.pk, turn.number)
    if key not in baker.starmap_views:
        at = turn.number if turn.state == "closed" else None
        baker.starmap_views[key] = map_view(campaign, None, turn=at)
    return baker.starmap_views[key]


def _key(baker, lang: str, campaign: Campaign, turn: _Turn, neighbours, rows) -> str:
    """What a turn page shows (names and paths, not objects): the page is not rendered
    again while this is unchanged. A rebuild of a generated 1 000-battle league (20
    turns, two languages) spent 117 ms CPU in :func:`bake` rendering every turn page,
    21 ms with these keys (``time.process_time`` around it, same run)."""

    def fleets(items):
        return [(f.name, f.site_path) for f in items]

    def battles(items):
        return [(b.name, b.site_path, b.location) for b in items]

    parts = [
        "map",
        baker.sources,
        baker.map_sources,
        lang,
        [(c.name, c.site_path) for c in baker.campaigns],
        campaign.site_map,
        turn.number,
        turn.state,
        turn.closed_at,
        [n.number if n else None for n in neighbours],
        [
            (
                r["territory"].name,
                r["territory"].kind,
                r["territory"].has_shipyard,
                r["holder"].name if r["holder"] else None,
                r["holder_path"],
                fleets(r["fleets"]),
                battles(r["battles"]),
            )
            for r in rows["rows"]
        ],
        rows["positions_known"],
        rows["starmap"],
        fleets(rows["transit"]),
        battles(rows["elsewhere"]),
    ]
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:32]


def bake(baker, lang: str) -> None:
    """Render the map pages of every campaign that has turns, in the active language (a
    turn page only when what it shows changed)."""
    baker.map_sources = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    for campaign in baker.campaigns:
        turns = baker.map_turns.get(campaign.pk) or []
        if not turns:
            continue
        baker.page(
            lang,
            campaign.site_map,
            "site/map_index.html",
            {"campaign": campaign, "turns": turns, "campaign_path": campaign.site_path},
        )
        for i, turn in enumerate(turns):
            previous = turns[i - 1] if i else None
            following = turns[i + 1] if i + 1 < len(turns) else None
            rows = _rows(baker, campaign, turn)
            view = _public_map(baker, campaign, turn)
            rows["starmap"] = (
                draw_map(view, title=_("Star map at turn %(n)s") % {"n": turn.number})
                if view is not None
                else None
            )
            baker.page(
                lang,
                turn.path,
                "site/map_turn.html",
                {
                    "campaign": campaign,
                    "campaign_path": campaign.site_path,
                    "turn": turn,
                    "previous": previous,
                    "next": following,
                    **rows,
                },
                key=_key(baker, lang, campaign, turn, (previous, following), rows),
            )


def produce(baker) -> None:
    """The page producer (``builder.PAGE_PRODUCERS``): :func:`bake` in every language."""
    for lang in baker.langs:
        with translation.override(lang):
            bake(baker, lang)
