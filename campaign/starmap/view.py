"""The one reading of a campaign's star map for display: :func:`map_view`.

Every page, API answer, SVG and site map of the star map draws from a :class:`MapView`
(never from the fleet rows themselves), so who sees which fleet is decided here only.

Who sees what: the fog of war (``campaign.fog.knowledge.fog_for``, whose docstring
states the rules; the sensor reach in ``campaign.fog.reach``):

- staff and the campaign's organisers (and the system actor): every fleet, named, and
  every order;
- a player of the campaign: their own factions' fleets and orders, every public fleet,
  the hidden enemy fleets in their sensor reach or revealed to them as unnamed
  ``contacts``, and the last-known position of those they saw before (``sightings``);
- anyone else, and the public (``user=None``, the published site and its search index):
  every fleet that is not hidden, no contact, no sighting, no orders;
- everyone: the systems, links, territories and who holds them.

On a closed turn's map the contacts are those recorded at its close.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Count, Q

from campaign.fog.knowledge import fog_for
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
class ContactView:
    """A hidden enemy fleet seen now, unnamed (``campaign.fog.knowledge``): ``label``
    (stable, ``"C-3F2A9B"``), ``blips`` (its size, rules §5), in ``system_id`` or on
    ``link_id``; ``how``: ``"sensors"`` or ``"reveal"`` (an organiser showed it)."""

    label: str
    blips: int
    system_id: int | None
    link_id: int | None
    how: str


@dataclass(frozen=True)
class SightingView:
    """A hidden enemy fleet's last-known position: as :class:`ContactView`, seen at the
    close of ``turn``."""

    label: str
    blips: int
    system_id: int | None
    link_id: int | None
    how: str
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
    contacts: list[ContactView] = field(default_factory=list)
    #: The reader's fog scope: ``"all"``, ``"factions"`` or ``"public"`` (``campaign.fog``).
    fog: str = "public"
    #: Ids of the fleets whose orders the reader sees and gives (organisers: all; a
    #: player: their factions'; empty on a closed turn's map and for everyone else).
    commands: frozenset[int] = frozenset()

    def system(self, system_id: int | None) -> SystemView | None:
        """The system of that id, or None."""
        return next((s for s in self.systems if s.id == system_id), None)

    def link(self, link_id: int | None) -> LinkView | None:
        """The link of that id, or None."""
        return next((lk for lk in self.links if lk.id == link_id), None)

    def fleets_in(self, system_id: int) -> list[FleetView]:
        """The fleets in that system."""
        return [f for f in self.fleets if f.system_id == system_id]

    def contacts_in(self, system_id: int) -> list[ContactView]:
        """The contacts in that system."""
        return [c for c in self.contacts if c.system_id == system_id]


def map_view(campaign: Campaign, user: User, *, turn: int | None = None) -> MapView:
    """The map of ``campaign`` as ``user`` sees it (``None``: the public), now or at the
    close of ``turn`` (positions from the fleets' position history; a turn not closed yet
    reads as now). Systems, links and holders are today's (past holders are not kept).

    A fixed number of queries however many systems, links and fleets (about 12 for a
    player, with the fog of war's).
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
    for pk, name, slug, x, y in systems_qs.values_list("pk", "name", "slug", "x", "y"):
        terr = tuple(placements.get(pk, ()))
        holders = {(t.faction_id, t.faction_name) for t in terr}
        holder = holders.pop() if len(holders) == 1 else (None, "")
        systems.append(SystemView(pk, name, slug, x, y, holder[0], holder[1], terr))
    names = {s.id: s.name for s in systems}
    links = [
        LinkView(pk, a, b, names[a], names[b], turns)
        for pk, a, b, turns in StarLink.objects.filter(campaign=campaign).values_list(
            "pk", "a_id", "b_id", "travel_turns"
        )
    ]
    links.sort(key=lambda lk: (lk.a_name, lk.b_name))

    turn_at = None
    if turn is not None:
        closed = campaign.turns.filter(number=turn, closed_at__isnull=False).first()
        turn_at = closed.closed_at if closed else None
    columns = ("fleet_id", "system_id", "link_id", "heading_id", "departed_turn", "arrival_turn")
    if turn_at is not None:
        positions = [
            tuple(getattr(p, c) for c in columns)
            for p in FleetPosition.history.as_of(turn_at).filter(campaign_id=campaign.pk)
        ]
    else:
        positions = list(FleetPosition.objects.filter(campaign=campaign).values_list(*columns))
    fog = fog_for(
        campaign,
        user,
        {p[0]: (p[1], p[2]) for p in positions},
        closed_turn=turn if turn_at is not None else None,
        links={lk.id: (lk.a_id, lk.b_id) for lk in links},
        placements=[(t.faction_id, s.id, t.kind) for s in systems for t in s.territories],
    )
    # Orders: the organisers' all, a player's their factions', only on today's map.
    sees_orders = turn_at is None and fog.scope != "public"
    fleets_by_id = {
        row[0]: row
        for row in Fleet.objects.filter(pk__in=list(fog.named))
        .annotate(
            afloat=Count(
                "ships",
                filter=~Q(ships__status__in=[Ship.Status.DESTROYED, Ship.Status.CAPTURED]),
            )
        )
        .values_list("pk", "name", "slug", "faction_id", "faction__name", "hidden", "afloat")
    }
    ordered = [pk for pk, f in fleets_by_id.items() if fog.scope == "all" or f[3] in fog.observers]
    destinations: dict[int, int] = {}
    if sees_orders and ordered:
        for fleet_id, dest in MapMove.objects.filter(
            campaign=campaign,
            fleet_id__in=ordered,
            status__in=[MapMove.Status.QUEUED, MapMove.Status.UNDER_WAY],
        ).values_list("fleet_id", "destination_id"):
            destinations[fleet_id] = dest
    fleets = []
    for fleet_id, system_id, link_id, heading_id, departed, arrival in positions:
        f = fleets_by_id.get(fleet_id)
        if f is None:
            continue
        pk, name, slug, faction_id, faction_name, hidden, afloat = f
        fleets.append(
            FleetView(
                id=pk,
                name=name,
                slug=slug,
                faction_id=faction_id,
                faction_name=faction_name,
                hidden=hidden,
                ships=afloat,
                system_id=system_id,
                link_id=link_id,
                heading_id=heading_id,
                departed_turn=departed,
                arrival_turn=arrival,
                destination_id=destinations.get(pk),
            )
        )
    fleets.sort(key=lambda f: (f.name, f.id))
    contacts = [
        ContactView(c.label, c.blips, c.system_id, c.link_id, c.how) for c in fog.contacts.values()
    ]
    contacts.sort(key=lambda c: c.label)
    sightings = [
        SightingView(c.label, c.blips, c.system_id, c.link_id, c.how, c.turn or 0)
        for c in fog.last_seen
    ]
    return MapView(
        campaign.pk,
        turn,
        systems,
        links,
        fleets,
        sightings,
        sees_orders,
        contacts,
        fog.scope,
        frozenset(ordered) if sees_orders else frozenset(),
    )
