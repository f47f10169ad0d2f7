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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.db.models import OuterRef, Subquery

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
    """A hidden enemy fleet as a faction sees it: ``label``, ``blips``, in ``system_id``
    or on ``link_id``; ``how`` seen (``Sighting.How``). Live in :attr:`Fog.contacts`; at
    the close of ``turn`` in :attr:`Fog.last_seen` (``turn`` None: seen now)."""

    label: str
    blips: int
    system_id: int | None
    link_id: int | None
    how: str
    turn: int | None = None


@dataclass
class Fog:
    """What a viewer may see (module docstring): ``scope``, the ``observers`` (faction
    ids), the fleets shown named (``named``: ids), the ``contacts`` seen now (fleet id →
    :class:`Contact`; the id is for the map view's joins, never shown) and the
    ``last_seen`` of the hidden enemy fleets out of sight, latest first."""

    scope: str
    observers: frozenset[int] = frozenset()
    named: set[int] = field(default_factory=set)
    contacts: dict[int, Contact] = field(default_factory=dict)
    last_seen: list[Contact] = field(default_factory=list)


def fleet_facts(fleet_ids) -> dict[int, FleetFacts]:
    """:class:`FleetFacts` of ``fleet_ids`` (two queries)."""
    fleets = {
        pk: (faction_id, hidden)
        for pk, faction_id, hidden in Fleet.objects.filter(pk__in=list(fleet_ids)).values_list(
            "pk", "faction_id", "hidden"
        )
    }
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


#: ``{link id: (system id, system id)}``: a map's links.
Links = Mapping[int, tuple[int, int]]
#: ``[(faction id, system id, territory kind)]``: the territories placed on a map.
Placements = Iterable[tuple[int, int, str]]


def map_links(campaign: Campaign) -> dict[int, tuple[int, int]]:
    """The :data:`Links` of ``campaign``'s map (one query)."""
    rows = StarLink.objects.filter(campaign=campaign).values_list("pk", "a_id", "b_id")
    return {pk: (a, b) for pk, a, b in rows}


def map_placements(campaign: Campaign) -> list[tuple[int, int, str]]:
    """The :data:`Placements` of ``campaign``'s map (one query)."""
    return list(
        TerritoryPlacement.objects.filter(campaign=campaign).values_list(
            "territory__faction_id", "system_id", "territory__kind"
        )
    )


def reaches(
    positions: Positions,
    facts: Mapping[int, FleetFacts],
    faction_ids,
    *,
    links: Links,
    placements: Placements,
) -> dict[int, Reach]:
    """Each of ``faction_ids``' :class:`Reach` with the fleets at ``positions`` on a map
    of ``links`` and ``placements`` (no query)."""
    territories: dict[int, list[tuple[int, bool]]] = defaultdict(list)
    for faction_id, system_id, kind in placements:
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
    campaign: Campaign,
    positions: Positions,
    facts: Mapping[int, FleetFacts],
    faction_ids,
    *,
    links: Links | None = None,
    placements: Placements | None = None,
) -> dict[int, dict[int, str]]:
    """``{faction id: {fleet id: how}}``: the enemy fleets each of ``faction_ids`` sees
    where they are — in its sensor reach (``"sensors"``) or revealed to it (``"reveal"``,
    when not in reach) — whether public or hidden. One query, plus one each for
    ``links`` and ``placements`` when not given (read from the campaign's map)."""
    reach = reaches(
        positions,
        facts,
        faction_ids,
        links=map_links(campaign) if links is None else links,
        placements=map_placements(campaign) if placements is None else placements,
    )
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


def fog_for(
    campaign: Campaign,
    user: User,
    positions: Positions,
    *,
    closed_turn: int | None = None,
    links: Links | None = None,
    placements: Placements | None = None,
) -> Fog:
    """The :class:`Fog` of ``user`` over the fleets at ``positions``: the map now
    (``closed_turn`` None: contacts from the sensor rule and the live reveals) or at the
    close of ``closed_turn`` (contacts as recorded then, ``Sighting`` rows of that turn).
    Last-known positions: the latest sighting before (any, now) of each hidden enemy
    fleet not seen. ``links`` and ``placements``: the map's, when the caller has read
    them (else read here). A fixed number of queries: two for the roles, then two for
    the fleets, one for the reveals, one for the sightings."""
    scope, observers = viewer_scope(user, campaign)
    if scope == "all":
        return Fog(scope, named=set(positions))
    facts = fleet_facts(positions)
    named = {pk for pk, f in facts.items() if not f.hidden or f.faction_id in observers}
    fog = Fog(scope, observers, named=named)
    if scope == "public":
        return fog
    mine = Sighting.objects.filter(campaign=campaign, observer_id__in=list(observers))
    if closed_turn is not None:
        mine = mine.filter(turn__lte=closed_turn)
    # Only each fleet's latest sighting is read (a long campaign keeps one row a turn).
    latest = mine.filter(fleet_id=OuterRef("fleet_id")).order_by("-turn").values("turn")[:1]
    sightings = (
        mine.filter(fleet__hidden=True, turn=Subquery(latest))
        .exclude(fleet__faction_id__in=list(observers))
        .order_by("fleet_id", "-how", "observer_id")
        .values_list("fleet_id", "turn", "system_id", "link_id", "blips", "how")
    )
    if closed_turn is None:
        seen_now = seen_by(
            campaign, positions, facts, observers, links=links, placements=placements
        )
        for seen in seen_now.values():
            for fleet_id, how in seen.items():
                if fleet_id in named or fleet_id in fog.contacts:
                    continue
                system_id, link_id = positions[fleet_id]
                fog.contacts[fleet_id] = Contact(
                    contact_label(campaign.pk, fleet_id),
                    facts[fleet_id].blips,
                    system_id,
                    link_id,
                    how,
                )
    done = named | set(fog.contacts)
    for fleet_id, turn, system_id, link_id, size, how in sightings:
        if fleet_id in done:
            continue  # several observers saw it at that turn: the first row is kept
        done.add(fleet_id)
        contact = Contact(contact_label(campaign.pk, fleet_id), size, system_id, link_id, how)
        if closed_turn is not None and turn == closed_turn:
            fog.contacts[fleet_id] = contact  # seen at that close: where the map shows it
        else:
            fog.last_seen.append(replace(contact, turn=turn))
    fog.last_seen.sort(key=lambda c: (-(c.turn or 0), c.label))
    return fog
