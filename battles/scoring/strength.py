"""Fleet strength at each turn close: one :class:`~battles.models.StrengthSnapshot` per
fleet of the campaign's factions, written by the close and deleted by its reopen.

Why a snapshot rather than the ships' history tables: a ship's status at a past moment
would need the history of every ship, its class and its fleet (a ship moved between
fleets, a class re-priced), read again at every page view; the snapshot is written once,
is a handful of rows per turn, and keeps the fleet, so the fleet's visibility decides who
sees it (a hidden fleet's strength is never counted for those who may not see it).
"""

from __future__ import annotations

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce

from battles.models import StrengthSnapshot
from campaign.league.models import Campaign
from factions.models import Fleet, Ship

#: Ship statuses that no longer count in a fleet's strength.
GONE = (Ship.Status.DESTROYED, Ship.Status.CAPTURED)


def strength_write(campaign: Campaign, turn: int) -> list[StrengthSnapshot]:
    """Write the strength of every fleet of ``campaign``'s factions at turn ``turn``'s
    close (replacing any of that turn): its ships neither destroyed nor captured, their
    count, construction points (a class without points counts 0) and mass. Two queries
    and one insert, whatever the number of ships."""
    strength_remove(campaign, turn)
    active = ~Q(ships__status__in=GONE)
    fleets = Fleet.objects.filter(faction__in=campaign.factions.all()).annotate(
        n=Count("ships", filter=active),
        pts=Coalesce(Sum(Coalesce(F("ships__ship_class__points"), 0), filter=active), 0),
        tons=Coalesce(Sum("ships__ship_class__mass", filter=active), 0),
    )
    return StrengthSnapshot.objects.bulk_create(
        StrengthSnapshot(
            campaign=campaign,
            turn=turn,
            faction_id=f.faction_id,
            fleet=f,
            ships=f.n,
            points=f.pts,
            mass=f.tons,
        )  # fmt: skip
        for f in fleets
    )


def strength_remove(campaign: Campaign, turn: int) -> int:
    """Delete the strengths written at turn ``turn``'s close; returns the count."""
    return StrengthSnapshot.objects.filter(campaign=campaign, turn=turn).delete()[0]
