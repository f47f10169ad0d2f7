"""What one viewer knows of the fleets on a campaign's map at one turn: the fog of war
applied (``campaign.starmap.view.map_view`` asks :func:`fog_for`, so every page, API
answer, SVG and site map follows it).

Scopes (``campaign.league.roles``):

- ``"all"``: staff and the campaign's organisers see every fleet, named;
- ``"factions"``: a player sees, for the factions they play in the campaign (the
  *observers*): their own fleets, named, hidden ones included; every **public** fleet,
  named, where it is (a public fleet is published: the site shows its position, so a
  rival reading the site would see it anyway); each **hidden** enemy fleet in their
  sensor reach (``campaign.fog.reach``) or revealed to them by an organiser
  (``campaign.fog.reveals``) as an unnamed **contact** — a label, its size in blips (one
  per started 50 mass of each ship afloat, rules §5), where it is — and the others they
  saw before as their **last-known** position and turn (``campaign.fog.models.Sighting``);
- ``"public"``: anonymous visitors, the site and its search index, chroniclers and
  outsiders see the public fleets only: no contact, nothing from any faction's sightings.

A hidden fleet is "seen only by its faction" (``Fleet.hidden``): nobody else ever reads
its name, faction, ships or page, not even in sensor reach; a contact tells only that
something of that size is there.

Queries: a fixed number whatever the fleets (roles, fleets, ships, links, placements,
reveals, sightings).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.conf import settings

from campaign.fog.models import Reveal, Sighting
from campaign.fog.reach import Reach, presence_of, sensor_reach
from campaign.league.models import Campaign
from campaign.league.roles import User, campaign_faction_ids_for
from campaign.starmap.models import StarLink, TerritoryPlacement
from factions.models import Fleet, Ship, Territory

#: ``{fleet id: (system id or None, link id or None)}``: where each fleet on the map is.
Positions = Mapping[int, tuple[int | None, int | None]]

AFLOAT_EXCLUDED = (Ship.Status.DESTROYED, Ship.Status.CAPTURED)
BLIP_MASS = 50  # rules §5: one blip per started 50 mass


def blips(mass: int) -> int:
    """Blips of one ship of ``mass`` (rules §5: 1 blip per started 50 mass; 51–100 → 2)."""
    return -(-mass // BLIP_MASS) if mass > 0 else 0


def contact_label(campaign_id: int, fleet_id: int) -> str:
    """A hidden fleet's label as a contact: stable from turn to turn (sightings of the
    same fleet read alike) and derived from the server's secret, so it gives away neither
    the fleet's id nor its name. ``"C-3F2A9B"``."""
    digest = hashlib.sha256(f"{settings.SECRET_KEY}:fog:{campaign_id}:{fleet_id}".encode())
    return "C-" + digest.hexdigest()[:6].upper()


@dataclass(frozen=True)
class FleetFacts:
    """A fleet as the rule reads it: faction, hidden, size in blips, afloat, and whether
    a ship afloat has advanced sensors."""

    faction_id: int
    hidden: bool
    blips: int = 0
    afloat: bool = False
    advanced: bool = False


@dataclass(frozen=True)
class Contact:
    """A hidden enemy fleet as a faction sees it: ``label``, ``blips``; where is in the
    map view's fleet position (live) or in :class:`LastSeen`."""

    label: str
    blips: int


@dataclass(frozen=True)
class LastSeen:
    """A hidden enemy fleet's last-known position: in ``system_id`` or on ``link_id`` at
    the close of turn ``turn``, ``how`` seen (``Sighting.How``)."""

    label: str
    blips: int
    system_id: int | None
    link_id: int | None
    turn: int
    how: str


@dataclass
class Fog:
    """What a viewer may see (module docstring): ``scope``, the ``observers`` (faction
    ids), the fleets shown named (``named``), the ``contacts`` (fleet id → :class:`Contact`,
    where the fleet is now) and the ``last_seen`` of the rest."""

    scope: str
    observers: frozenset[int] = frozenset()
    named: set[int] = field(default_factory=set)
    contacts: dict[int, Contact] = field(default_factory=dict)
    last_seen: list[LastSeen] = field(default_factory=list)

    def shows(self, fleet_id: int) -> bool:
        """True if the fleet is drawn where it is (named or as a contact)."""
        return fleet_id in self.named or fleet_id in self.contacts


def fleet_facts(fleet_ids) -> dict[int, FleetFacts]:
    """:class:`FleetFacts` of ``fleet_ids`` (two queries)."""
    fleets = dict(
        (pk, (faction_id, hidden))
        for pk, faction_id, hidden in Fleet.objects.filter(pk__in=list(fleet_ids)).values_list(
            "pk", "faction_id", "hidden"
        )
    )
    size: dict[int, int] = defaultdict(int)
    advanced: set[int] = set()
    ships = (
        Ship.objects.filter(fleet_id__in=list(fleets))
        .exclude(status__in=AFLOAT_EXCLUDED)
        .values_list("fleet_id", "ship_class__mass", "ship_class__design__sensors")
    )
    for fleet_id, mass, sensors in ships:
        size[fleet_id] += blips(mass)
        if sensors == "advanced":
            advanced.add(fleet_id)
    return {
        pk: FleetFacts(
            faction_id,
            hidden,
            blips=size.get(pk, 0),
            afloat=pk in size,
            advanced=pk in advanced,
        )
        for pk, (faction_id, hidden) in fleets.items()
    }


def reaches(
    campaign: Campaign, positions: Positions, facts: Mapping[int, FleetFacts], faction_ids
) -> dict[int, Reach]:
    """Each of ``faction_ids``' :class:`Reach` with the fleets at ``positions`` (two
    queries: the links and the placed territories)."""
    links = {
        pk: (a, b)
        for pk, a, b in StarLink.objects.filter(campaign=campaign).values_list("pk", "a_id", "b_id")
    }
    territories: dict[int, list[tuple[int, bool]]] = defaultdict(list)
    placed = TerritoryPlacement.objects.filter(
        campaign=campaign, territory__faction_id__in=list(faction_ids)
    ).values_list("territory__faction_id", "system_id", "territory__kind")
    for faction_id, system_id, kind in placed:
        territories[faction_id].append((system_id, kind == Territory.Kind.STATION))
    fleets: dict[int, list[tuple[int | None, int | None, bool]]] = defaultdict(list)
    for fleet_id, (system_id, link_id) in positions.items():
        f = facts.get(fleet_id)
        if f is not None and f.afloat:
            fleets[f.faction_id].append((system_id, link_id, f.advanced))
    return {
        faction_id: sensor_reach(
            presence_of(territories=territories[faction_id], fleets=fleets[faction_id]), links
        )
        for faction_id in faction_ids
    }


def live_reveals(campaign: Campaign, faction_ids) -> dict[int, set[int]]:
    """``{faction id: fleet ids revealed to it now}`` among ``faction_ids`` (one query)."""
    out: dict[int, set[int]] = defaultdict(set)
    rows = Reveal.objects.filter(
        campaign=campaign, faction_id__in=list(faction_ids), revoked_at__isnull=True
    ).values_list("faction_id", "fleet_id")
    for faction_id, fleet_id in rows:
        out[faction_id].add(fleet_id)
    return out


def seen_by(
    campaign: Campaign, positions: Positions, facts: Mapping[int, FleetFacts], faction_ids
) -> dict[int, dict[int, str]]:
    """``{faction id: {fleet id: how}}``: the enemy fleets each of ``faction_ids`` sees
    where they are — in its sensor reach (``"sensors"``) or revealed to it (``"reveal"``,
    when not in reach) — whether public or hidden (three queries)."""
    reach = reaches(campaign, positions, facts, faction_ids)
    revealed = live_reveals(campaign, faction_ids)
    out: dict[int, dict[int, str]] = {}
    for faction_id in faction_ids:
        seen: dict[int, str] = {}
        for fleet_id, (system_id, link_id) in positions.items():
            f = facts.get(fleet_id)
            if f is None or f.faction_id == faction_id:
                continue
            if f.afloat and reach[faction_id].covers(system=system_id, link=link_id):
                seen[fleet_id] = Sighting.How.SENSORS
            elif fleet_id in revealed[faction_id]:
                seen[fleet_id] = Sighting.How.REVEAL
        out[faction_id] = seen
    return out


def viewer_scope(user: User, campaign: Campaign) -> tuple[str, frozenset[int]]:
    """``(scope, observer faction ids)`` of ``user`` on ``campaign``'s map (module
    docstring); ``user`` None is the public."""
    seen = campaign_faction_ids_for(user, campaign)
    if seen is None:
        return "all", frozenset()
    if not seen:
        return "public", frozenset()
    return "factions", frozenset(seen)


def fog_for(campaign: Campaign, user: User, positions: Positions, *, turn: int) -> Fog:
    """The :class:`Fog` of ``user`` over the fleets at ``positions`` (the map of
    ``turn``): who is named, which are contacts, and the last-known positions of the
    hidden enemy fleets out of sight (sightings up to the close of ``turn``)."""
    scope, observers = viewer_scope(user, campaign)
    if scope == "all":
        return Fog(scope, named=set(positions))
    facts = fleet_facts(positions)
    named = {pk for pk, f in facts.items() if not f.hidden or f.faction_id in observers}
    fog = Fog(scope, observers, named=named)
    if scope == "public":
        return fog
    for seen in seen_by(campaign, positions, facts, observers).values():
        for fleet_id in seen:
            if fleet_id not in named:
                f = facts[fleet_id]
                fog.contacts[fleet_id] = Contact(contact_label(campaign.pk, fleet_id), f.blips)
    fog.last_seen = _last_seen(campaign, observers, turn, exclude=named | set(fog.contacts))
    return fog


def _last_seen(campaign: Campaign, observers, turn: int, *, exclude: set[int]) -> list[LastSeen]:
    """The latest sighting by any of ``observers`` up to ``turn`` of each hidden fleet not
    in ``exclude`` (one query); a fleet public now is named, never a last-known contact."""
    rows = (
        Sighting.objects.filter(
            campaign=campaign, observer_id__in=list(observers), turn__lte=turn, fleet__hidden=True
        )
        .exclude(fleet_id__in=list(exclude))
        .order_by("fleet_id", "-turn", "observer_id")
        .values_list("fleet_id", "turn", "system_id", "link_id", "blips", "how")
    )
    latest: dict[int, LastSeen] = {}
    for fleet_id, seen_turn, system_id, link_id, size, how in rows:
        if fleet_id not in latest:
            latest[fleet_id] = LastSeen(
                contact_label(campaign.pk, fleet_id), size, system_id, link_id, seen_turn, how
            )
    return sorted(latest.values(), key=lambda s: (-s.turn, s.label))
