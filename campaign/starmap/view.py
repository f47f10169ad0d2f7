"""The one reading of a campaign's star map for display: :func:`map_view`.

Every page, API answer, SVG and site map of the star map draws from a :class:`MapView`
(never from the fleet rows themselves), so who sees which fleet is decided here only.

Who sees what (today; the fog of war refines it here):

- staff and the campaign's organisers (and the system actor): every fleet and order;
- a player of the campaign: their own factions' fleets and orders only;
- anyone else, and the public (``user=None``, the published site): every fleet that is not
  hidden, no orders;
- everyone: the systems, links, territories and who holds them.

``sightings`` (last-known positions of fleets not seen now) is empty for now.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Count, Q

from campaign.league.roles import campaign_faction_ids_for
from campaign.starmap.models import (
    FleetPosition,
    MapMove,
    StarLink,
    StarSystem,
    TerritoryPlacement,
)
from factions.models import Fleet, Ship

if TYPE_CHECKING:
    from campaign.league.models import Campaign
    from campaign.league.roles import User


@dataclass(frozen=True)
class TerritoryView:
    """A territory placed in a system; ``faction_id``/``faction_name``: its holder."""

    id: int
    name: str
    kind: str
    faction_id: int
    faction_name: str
    has_shipyard: bool


@dataclass(frozen=True)
class SystemView:
    """A system at ``(x, y)`` map units (0–1 000, y downwards); ``holder_id`` /
    ``holder_name``: the faction holding all its territories (None: none or several)."""

    id: int
    name: str
    slug: str
    x: int
    y: int
    holder_id: int | None
    holder_name: str
    territories: tuple[TerritoryView, ...] = ()


@dataclass(frozen=True)
class LinkView:
    """A link between systems ``a_id`` and ``b_id``, crossed in ``travel_turns`` closes."""

    id: int
    a_id: int
    b_id: int
    a_name: str
    b_name: str
    travel_turns: int


@dataclass(frozen=True)
class FleetView:
    """A fleet as the reader may see it: in ``system_id``, or on ``link_id`` heading for
    ``heading_id`` and arriving at the close of ``arrival_turn``. ``ships``: ships not
    destroyed nor captured. ``destination_id``: the system its order leads to (only for
    readers who see its orders; else None)."""

    id: int
    name: str
    slug: str
    faction_id: int
    faction_name: str
    hidden: bool
    ships: int
    system_id: int | None
    link_id: int | None = None
    heading_id: int | None = None
    departed_turn: int | None = None
    arrival_turn: int | None = None
    destination_id: int | None = None

    @property
    def in_transit(self) -> bool:
        """True while on a link."""
        return self.link_id is not None


@dataclass(frozen=True)
class SightingView:
    """A fleet's last-known position (``turn``: when it was seen): for the fog of war."""

    fleet_id: int
    fleet_name: str
    faction_id: int
    faction_name: str
    system_id: int | None
    link_id: int | None
    turn: int


@dataclass(frozen=True)
class MapView:
    """A campaign's map as one reader sees it at ``turn`` (None: now). Lists are ordered:
    systems and fleets by name, links by their ends."""

    campaign_id: int
    turn: int | None
    systems: list[SystemView]
    links: list[LinkView]
    fleets: list[FleetView]
    sightings: list[SightingView] = field(default_factory=list)
    sees_orders: bool = False

    def system(self, system_id: int | None) -> SystemView | None:
        """The system of that id, or None."""
        return next((s for s in self.systems if s.id == system_id), None)

    def link(self, link_id: int | None) -> LinkView | None:
        """The link of that id, or None."""
        return next((lk for lk in self.links if lk.id == link_id), None)

    def fleets_in(self, system_id: int) -> list[FleetView]:
        """The fleets in that system."""
        return [f for f in self.fleets if f.system_id == system_id]


def _seen_factions(user: User, campaign: Campaign) -> tuple[set[int] | None, bool]:
    """``(factions whose every fleet and order is seen — None: all, public_too)``:
    ``public_too`` adds every fleet that is not hidden (module docstring)."""
    if user is None:
        return set(), True
    seen = campaign_faction_ids_for(user, campaign)
    if seen is None:
        return None, False
    return seen, not seen


def map_view(campaign: Campaign, user: User, *, turn: int | None = None) -> MapView:
    """The map of ``campaign`` as ``user`` sees it (``None``: the public), now or at the
    close of ``turn`` (positions from the fleets' position history; a turn not closed yet
    reads as now). Systems, links and holders are today's (past holders are not kept).

    A fixed number of queries however many systems, links and fleets (about 7).
    """
    systems_qs = StarSystem.objects.filter(campaign=campaign).order_by("name", "pk")
    placements: dict[int, list[TerritoryView]] = {}
    for p in (
        TerritoryPlacement.objects.filter(campaign=campaign)
        .select_related("territory__faction")
        .order_by("territory__name", "pk")
    ):
        t = p.territory
        placements.setdefault(p.system_id, []).append(
            TerritoryView(t.pk, t.name, t.kind, t.faction_id, t.faction.name, t.has_shipyard)
        )
    systems = []
    for s in systems_qs:
        terr = tuple(placements.get(s.pk, ()))
        holders = {(t.faction_id, t.faction_name) for t in terr}
        holder = holders.pop() if len(holders) == 1 else (None, "")
        systems.append(SystemView(s.pk, s.name, s.slug, s.x, s.y, holder[0], holder[1], terr))
    names = {s.id: s.name for s in systems}
    links = [
        LinkView(lk.pk, lk.a_id, lk.b_id, names[lk.a_id], names[lk.b_id], lk.travel_turns)
        for lk in StarLink.objects.filter(campaign=campaign)
    ]
    links.sort(key=lambda lk: (lk.a_name, lk.b_name))

    seen, public_too = _seen_factions(user, campaign)
    sees_orders = seen is None or bool(seen)
    turn_at = None
    if turn is not None:
        closed = campaign.turns.filter(number=turn, closed_at__isnull=False).first()
        turn_at = closed.closed_at if closed else None
    if turn_at is not None:
        positions = list(FleetPosition.history.as_of(turn_at).filter(campaign_id=campaign.pk))
        sees_orders = False
    else:
        positions = list(FleetPosition.objects.filter(campaign=campaign))
    fleet_filter = Q(pk__in=[p.fleet_id for p in positions])
    if seen is not None:
        scope = Q(faction_id__in=seen)
        if public_too:
            scope |= Q(hidden=False)
        fleet_filter &= scope
    fleets_by_id = {
        f.pk: f
        for f in Fleet.objects.filter(fleet_filter)
        .select_related("faction")
        .annotate(
            afloat=Count(
                "ships",
                filter=~Q(ships__status__in=[Ship.Status.DESTROYED, Ship.Status.CAPTURED]),
            )
        )
    }
    destinations: dict[int, int] = {}
    if sees_orders and fleets_by_id:
        for fleet_id, dest in MapMove.objects.filter(
            campaign=campaign,
            fleet_id__in=list(fleets_by_id),
            status__in=[MapMove.Status.QUEUED, MapMove.Status.UNDER_WAY],
        ).values_list("fleet_id", "destination_id"):
            destinations[fleet_id] = dest
    fleets = []
    for p in positions:
        f = fleets_by_id.get(p.fleet_id)
        if f is None:
            continue
        fleets.append(
            FleetView(
                id=f.pk,
                name=f.name,
                slug=f.slug,
                faction_id=f.faction_id,
                faction_name=f.faction.name,
                hidden=f.hidden,
                ships=f.afloat,
                system_id=p.system_id,
                link_id=p.link_id,
                heading_id=p.heading_id,
                departed_turn=p.departed_turn,
                arrival_turn=p.arrival_turn,
                destination_id=destinations.get(f.pk),
            )
        )
    fleets.sort(key=lambda f: (f.name, f.id))
    return MapView(campaign.pk, turn, systems, links, fleets, [], sees_orders)
