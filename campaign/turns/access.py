"""What a user may read of a closed campaign turn's summary: the scoping of the campaign
turns, on the league's roles and the fleets' visibility (``factions.access``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q

from campaign.league.roles import User, campaign_faction_ids_for
from campaign.turns.models import Construction
from factions.access import visible_fleets
from factions.models import Faction, Fleet, LightUnitGroup, Ship

if TYPE_CHECKING:
    from campaign.league.models import Campaign


def turn_summary_for(user: User, summary: dict, *, campaign: Campaign) -> dict:
    """A closed turn's ``summary`` (``turns.closing``: ``repairs`` with ``ship`` ids,
    ``constructions`` with ``id``, ``squadrons_lost`` with ``id``, ``moves`` and
    ``map_moves`` with ``fleet``, ``income`` with the faction's ``name``) of ``campaign``
    as ``user`` may read it.

    A faction's yard work and income are its private campaign data, read like its yard
    queue and treasury (:func:`campaign_faction_ids_for`): a player reads the repairs,
    constructions and income of the factions they play, organisers and staff all of
    them, anyone else none. Squadrons lost and movements — the star map's too, as its map
    shows fleets (``campaign.fog``: a hidden fleet is named only to its faction) — stay
    public unless their fleet is hidden from ``user`` (:func:`visible_fleets`). Returns a
    copy; the stored summary is unchanged."""

    if not summary or (user is not None and user.is_authenticated and user.is_staff):
        return summary
    return summary_scoped(user, summary, own=campaign_faction_ids_for(user, campaign))


def summary_scoped(user: User, summary: dict, *, own: set[int] | None) -> dict:
    """:func:`turn_summary_for` when the caller has ``own`` already: the factions of the
    campaign whose private turn rows ``user`` reads, as ``campaign_faction_ids_for`` gives
    them (None: all; the turn page's ``require_faction_scope`` answer). A fixed number of
    queries; none for the parts the summary does not have."""

    if not summary or (user is not None and user.is_authenticated and user.is_staff):
        return summary
    repairs = summary.get("repairs", [])
    builds = summary.get("constructions", [])
    lost = summary.get("squadrons_lost", [])
    moves = summary.get("moves", [])
    map_moves = summary.get("map_moves", [])
    income = summary.get("income", [])
    movers = [m.get("fleet") for m in moves + map_moves]
    # The user's roles are looked up only for a summary that names fleets, ships or units.
    fleets = visible_fleets(user) if (movers or repairs or builds or lost) else Fleet.objects.none()
    moved = set(fleets.filter(pk__in=movers).values_list("pk", flat=True)) if movers else set()
    # visible_ships(user) is the ships of visible_fleets(user): those fleets, read once
    # (each call looks the user's roles up again).
    repaired = Ship.objects.filter(fleet__in=fleets, pk__in=[r.get("ship") for r in repairs])
    built = Construction.objects.filter(pk__in=[c.get("id") for c in builds], fleet__in=fleets)
    names = None
    if own is not None:
        repaired = repaired.filter(fleet__faction_id__in=own)
        built = built.filter(faction_id__in=own)
        names = (
            set(Faction.objects.filter(pk__in=own).values_list("name", flat=True))
            if income
            else set()
        )
    ships = set(repaired.values_list("pk", flat=True)) if repairs else set()
    built_ids = set(built.values_list("pk", flat=True)) if builds else set()
    groups = LightUnitGroup.objects.filter(pk__in=[g.get("id") for g in lost])
    seen = (
        set(
            groups.filter(
                Q(fleet__in=fleets) | Q(fleet=None, carrier__fleet__in=fleets)
            ).values_list("pk", flat=True)
        )
        if lost
        else set()
    )
    scoped = {
        **summary,
        "repairs": [r for r in repairs if r.get("ship") in ships],
        "constructions": [c for c in builds if c.get("id") in built_ids],
        "squadrons_lost": [g for g in lost if g.get("id") in seen],
        "moves": [m for m in moves if m.get("fleet") in moved],
        # stored by faction name (names are unique, factions.Faction.name)
        "income": [i for i in income if names is None or i.get("faction") in names],
    }
    if "map_moves" in summary:  # star-map moves: a hidden fleet's stay its faction's
        scoped["map_moves"] = [m for m in map_moves if m.get("fleet") in moved]
    return scoped
