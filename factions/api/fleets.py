"""Factions, fleets and ships API (django-ninja router mounted at ``/api/``).

Reads go through the ``access`` helpers (a hidden fleet and its ships are 404 for other
factions' players and the public); the fleet-list import is for organisers only. Handlers
are thin: look up, scope, call a service, serialise.
"""

from __future__ import annotations

from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Field, Query, Router, Schema, Status
from ninja.renderers import JSONRenderer
from pydantic import BaseModel

from campaign.core.api_errors import ErrorOut
from campaign.core.api_pages import array_page, filtered
from campaign.core.refusals import Refused, error_body
from campaign.league.api_auth import api_auth
from campaign.league.roles import is_organiser
from factions import fleet_cache
from factions.access import fleet_scope, organises_faction, visible_fleets, visible_ships
from factions.api import fleet_rows
from factions.commanders.records import commander_name
from factions.filters import FleetFilter
from factions.fleetlists import FleetListError
from factions.models import Faction, Fleet, LightUnitGroup, Ship
from factions.services import FleetImportError, UnknownFaction, faction_by_slug, fleet_import

router = Router(tags=["factions"])
_RENDERER = JSONRenderer()  # the API's renderer (campaign/api/__init__.py keeps ninja's default)
_CONTENT_TYPE = f"{_RENDERER.media_type}; charset={_RENDERER.charset}"


class TerritoryOut(Schema):
    name: str
    slug: str
    kind: str
    population: str
    defences: str
    has_shipyard: bool
    description: str


class FactionOut(Schema):
    name: str
    slug: str
    description: str


class FleetSummaryOut(Schema):
    name: str
    slug: str
    faction: str
    admiral: str
    hidden: bool
    ship_count: int

    @staticmethod
    def resolve_faction(obj: Fleet) -> str:
        return obj.faction.slug

    @staticmethod
    def resolve_admiral(obj: Fleet) -> str:
        # The name, as when it was a text column; the record is at /api/commanders/{id}.
        return commander_name(obj, "admiral")


class FactionDetailOut(FactionOut):
    population: str
    capital: str
    economy: str
    army_size: str
    government: str
    ruler: str
    political_blocs: str
    territories: list[TerritoryOut]
    fleets: list[FleetSummaryOut]

    @staticmethod
    def resolve_fleets(obj: Faction) -> list[Fleet]:
        return obj.visible_fleets  # set by the handler: scoped to the user


class ShipClassOut(Schema):
    id: int
    name: str
    type_word: str
    mass: int
    hull_boxes: int
    armour: int
    thrust: int
    points: int | None
    provisional: bool


class LightUnitOut(Schema):
    id: int
    name: str
    kind: str
    unit_type: str
    carrier_id: int | None
    location: str
    size: int
    strength: int


class ShipOut(Schema):
    """A ship and its damage state (boxes and crew factors lost, system ids lost)."""

    id: int
    name: str
    ship_class: ShipClassOut
    squadron: str | None
    captain: str
    status: str
    hull_lost: int
    hull_left: int
    armour_lost: int
    crew_lost: int
    systems_lost: list[str]

    @staticmethod
    def resolve_squadron(obj: Ship) -> str | None:
        return obj.squadron.name if obj.squadron_id else None

    @staticmethod
    def resolve_captain(obj: Ship) -> str:
        return commander_name(obj, "captain")


class ShipClassRow(BaseModel):
    """``ShipClassOut`` as a plain pydantic model (see :class:`FleetShipOut`)."""

    id: int
    name: str
    type_word: str
    mass: int
    hull_boxes: int
    armour: int
    thrust: int
    points: int | None
    provisional: bool


class FleetShipOut(BaseModel):
    """A ship of a fleet's detail: ``ShipOut``'s fields, validated from plain dicts.

    A plain pydantic model, not a ninja ``Schema``: ninja wraps every object it validates
    in its attribute getter, 8 ms for 100 ships against 0.3 ms this way (measured by
    timing ``TypeAdapter(list[...]).validate_python``).
    """

    id: int
    name: str
    ship_class: ShipClassRow
    squadron: str | None
    captain: str
    status: str
    hull_lost: int
    hull_left: int
    armour_lost: int
    crew_lost: int
    systems_lost: list[str]


class ShipDetailOut(ShipOut):
    fleet: str
    faction: str
    light_units: list[LightUnitOut]

    @staticmethod
    def resolve_fleet(obj: Ship) -> str:
        return obj.fleet.slug

    @staticmethod
    def resolve_faction(obj: Ship) -> str:
        return obj.fleet.faction.slug


class SquadronOut(Schema):
    id: int
    name: str
    commander: str


class FleetPointsOut(Schema):
    """Strength that tells the truth: ships afloat only (``factions.fleet_totals``)."""

    points: int
    ship_points: int
    squadron_points: int
    afloat: int
    lost: int
    lost_points: int
    damaged: int
    damaged_points: int
    unpriced: int


class FleetDetailOut(FleetSummaryOut):
    description: str
    territory: str | None
    squadrons: list[SquadronOut]
    ships: list[FleetShipOut]
    light_units: list[LightUnitOut]
    totals: FleetPointsOut

    @staticmethod
    def resolve_territory(obj: Fleet) -> str | None:
        return obj.territory.slug if obj.territory_id else None

    @staticmethod
    def resolve_totals(obj: Fleet) -> dict:
        return obj.totals_row  # set by _fleet_detail

    @staticmethod
    def resolve_ships(obj: Fleet) -> list[dict]:
        return obj.ship_rows  # set by _fleet_detail (one values() query)

    @staticmethod
    def resolve_squadrons(obj: Fleet) -> list[dict]:
        return obj.squadron_rows

    @staticmethod
    def resolve_light_units(obj: Fleet) -> list[dict]:
        return obj.light_unit_rows


class FleetImportIn(Schema):
    faction: str
    name: str
    text: str
    admiral: str = ""
    hidden: bool = False


def _fleets(request: HttpRequest):
    """Fleets the requesting user may see, with their faction and ship count."""
    return (
        visible_fleets(request.user)
        .select_related("faction", "admiral")
        .annotate(ship_count=Count("ships"))
    )


def _fleet_detail(fleet: Fleet) -> Fleet:
    """``fleet`` with everything its detail shows (``factions.api.fleet_rows``), in a fixed
    number of queries."""
    rows = fleet_rows.fleet_rows(fleet, light_unit_fields=tuple(LightUnitOut.model_fields))
    fleet.ship_rows = rows.ships
    fleet.ship_count = len(rows.ships)
    fleet.squadron_rows = rows.squadrons
    fleet.light_unit_rows = rows.light_units
    fleet.totals_row = rows.totals
    return fleet


def _fleet_json(fleet: Fleet) -> bytes:
    """``FleetDetailOut`` of ``fleet`` as the JSON django-ninja would send."""
    out = FleetDetailOut.from_orm(_fleet_detail(fleet)).model_dump()
    return _RENDERER.render(None, out, response_status=200).encode()


@router.get("/factions", response=list[FactionOut])
@array_page()
def faction_list(request: HttpRequest, response: HttpResponse):
    """Every faction (profiles are public), by name; ``limit``/``offset``
    (``X-Total-Count``: how many)."""
    return Faction.objects.order_by("name", "pk")


@router.get("/factions/{slug}", response=FactionDetailOut)
def faction_detail(request: HttpRequest, slug: str):
    """A faction's profile, territories and the fleets the user may see."""
    faction = get_object_or_404(Faction.objects.prefetch_related("territories"), slug=slug)
    faction.visible_fleets = list(_fleets(request).filter(faction=faction))
    return faction


class FleetFilterIn(Schema):
    """``GET /api/fleets`` filters (``factions.filters.FleetFilter``)."""

    faction: str | None = Field(None, description="faction slug")
    name: str | None = Field(None, description="part of the name, any case")


@router.get("/fleets", response=list[FleetSummaryOut])
@array_page()
def fleet_list(request: HttpRequest, response: HttpResponse, filters: Query[FleetFilterIn]):
    """Fleets the user may see (hidden ones only for their faction and organisers), by
    faction then name; ``limit``/``offset`` (``X-Total-Count``: how many) and the filters
    of :class:`FleetFilterIn`."""
    fleets = _fleets(request).order_by("faction__name", "name", "pk")
    return filtered(FleetFilter(filters.model_dump(exclude_none=True), queryset=fleets))


# Registered before /fleets/{slug}, whose pattern would otherwise take this path.
@router.post(
    "/fleets/import",
    response={201: FleetDetailOut, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut},
    auth=api_auth,
)
def fleet_import_view(request: HttpRequest, payload: FleetImportIn):
    """Create a fleet from a text fleet list (organisers only).

    400 lists every line error (``line 7: unknown ship class "Sa'arr" (did you mean
    "Sa'ar"?)``); nothing is written then.
    """
    if not is_organiser(request.user):
        raise Refused(_("only organisers may import fleets"))
    try:
        faction = faction_by_slug(slug=payload.faction)
    except UnknownFaction as exc:
        return Status(404, {"detail": str(exc)})
    if not organises_faction(request.user, faction):
        raise Refused(
            _("only organisers of a campaign of '%(faction)s' may import its fleets")
            % {"faction": faction.slug}
        )
    try:
        fleet = fleet_import(
            faction=faction,
            text=payload.text,
            fleet_name=payload.name,
            admiral=payload.admiral,
            hidden=payload.hidden,
        )
    except FleetListError as exc:
        errors = [("text", str(e)) for e in exc.errors]  # each names its line
        return Status(400, error_body(_("invalid fleet list"), errors))
    except FleetImportError as exc:
        return Status(400, {"detail": str(exc)})
    return Status(201, _fleet_detail(fleet_cache.visible_fleet(request.user, fleet.slug)))


@router.get("/fleets/{slug}", response=FleetDetailOut)
def fleet_detail(request: HttpRequest, slug: str):
    """A fleet with its squadrons, ships (class and damage state) and light units."""
    # Built once per version of the fleet data and viewer scope (factions.fleet_cache);
    # the response is the schema's JSON either way (tests/factions/test_fleet_cache.py).
    fleet = fleet_cache.visible_fleet(request.user, slug)
    body = fleet_cache.cached(
        "api", fleet, fleet_scope(request.user, fleet), lambda: _fleet_json(fleet)
    )
    return HttpResponse(body, content_type=_CONTENT_TYPE)


@router.get("/ships/{ship_id}", response=ShipDetailOut)
def ship_detail(request: HttpRequest, ship_id: int):
    """One ship the user may see, with the light units it carries."""
    return get_object_or_404(
        visible_ships(request.user)
        .select_related("ship_class", "squadron", "fleet__faction", "captain")
        .prefetch_related(Prefetch("light_units", LightUnitGroup.objects.all())),
        pk=ship_id,
    )
