"""Which fleets and ships a user may see, and whose secrets (hidden fleets, ship notes):
the scoping of the factions app, on the league's roles (``campaign.league.roles``, whose
docstring states the rules). Pages, API handlers and the site builder go through these.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from campaign.league.roles import User, organised_campaign_ids, player_faction_ids
from factions.models import Commander, Faction, Fleet, Ship


def organises_faction(user: User, faction: Faction) -> bool:
    """True for staff, and for organisers of a campaign ``faction`` takes part in: who may
    import fleets and designs for it. A faction in no campaign is for staff only."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return faction.campaigns.filter(pk__in=organised_campaign_ids(user)).exists()


def organised_faction_ids(user: User) -> set[int]:
    """Ids of the factions taking part in a campaign ``user`` organises (staff: not listed
    here, they see everything)."""

    organised = organised_campaign_ids(user)
    if not organised:
        return set()
    return set(
        Faction.objects.filter(campaigns__in=organised).values_list("pk", flat=True).distinct()
    )


def can_see_faction_secrets(user: User, faction: Faction) -> bool:
    """True if ``user`` may see ``faction``'s hidden fleets and notes: staff, its players,
    and the organisers of a campaign it takes part in."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or faction.pk in player_faction_ids(user):
        return True
    return organises_faction(user, faction)


def fleet_scope(user: User, fleet) -> str:
    """What ``user`` may see of ``fleet`` (already scoped by :func:`visible_fleets`), as
    a cache key part: ``"staff"``, ``"faction"`` (the faction's secrets, like
    :func:`can_see_faction_secrets`) or ``"public"``. What is cached per fleet is cached
    per scope, so nothing rendered for one scope is ever served to another.
    ``fleet.faction`` should be loaded (``select_related``)."""
    if user is None or not user.is_authenticated:
        return "public"
    if user.is_staff:
        return "staff"
    return "faction" if can_see_faction_secrets(user, fleet.faction) else "public"


def _secret_faction_ids(user: User) -> set[int] | None:
    """Factions whose hidden fleets ``user`` sees: None for staff (all), else those they
    play and those of the campaigns they organise (empty for anonymous users)."""
    if user is not None and user.is_authenticated and user.is_staff:
        return None
    return player_faction_ids(user) | organised_faction_ids(user)


def visible_fleets(user: User) -> QuerySet:
    """Fleets ``user`` may see: public ones, plus hidden ones of the factions they play
    and of the factions in the campaigns they organise (staff: all)."""

    qs = Fleet.objects.all()
    secret = _secret_faction_ids(user)
    if secret is None:
        return qs
    return qs.filter(Q(hidden=False) | Q(faction_id__in=secret))


def can_see_fleet(user: User, fleet) -> bool:
    """True if ``fleet`` is one of :func:`visible_fleets` (the same rule, for a fleet
    already read: a lookup by slug then this check compiles a simpler query, 0.5 ms
    against 1.0 ms for ``visible_fleets(user).get(slug=…)``)."""
    if not fleet.hidden:
        return True
    secret = _secret_faction_ids(user)
    return secret is None or fleet.faction_id in secret


def visible_ships(user: User) -> QuerySet:
    """Ships ``user`` may see: those of the fleets returned by :func:`visible_fleets`."""

    return Ship.objects.filter(fleet__in=visible_fleets(user))


def visible_commanders(user: User) -> QuerySet:
    """Commanders ``user`` may see, scoped like what they command: the admiral of a
    :func:`visible_fleets` fleet, the commander of one of its squadrons, the captain of
    one of its ships; a commander without a place (relieved) only for who sees their
    faction's secrets (staff: all)."""
    qs = Commander.objects.all()
    secret = _secret_faction_ids(user)
    if secret is None:
        return qs
    fleets = visible_fleets(user)
    return qs.filter(
        Q(fleet__in=fleets)
        | Q(squadron__fleet__in=fleets)
        | Q(ship__fleet__in=fleets)
        | Q(faction_id__in=secret)
    )


def commander_place(user: User, commander: Commander) -> Any:
    """Where ``commander`` serves, if ``user`` may see it: the fleet (admiral), squadron
    or ship (captain) whose fleet ``user`` sees (:func:`can_see_fleet`), else None (no
    place, or one in a fleet hidden from ``user``: a captured captain's new fleet stays
    hidden). Reads the place and its fleet (``select_related`` them to spare queries)."""
    if commander.fleet_id:
        place, fleet = commander.fleet, commander.fleet
    elif commander.squadron_id:
        place, fleet = commander.squadron, commander.squadron.fleet
    elif commander.ship_id:
        place, fleet = commander.ship, commander.ship.fleet
    else:
        return None
    return place if can_see_fleet(user, fleet) else None
