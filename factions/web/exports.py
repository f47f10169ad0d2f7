"""CSV downloads of fleets and ships (with their damage), scoped exactly like the pages:
a hidden fleet and its ships are in a file only for those who may see the fleet
(``factions.access.visible_fleets``); ship notes, a faction's secret, are never written.

``/campaigns/<slug>/fleets.csv`` and ``/campaigns/<slug>/ships.csv``: the fleets and ships
of the campaign's factions; ``/fleets/<slug>/ships.csv``: one fleet's ships (404 for a
fleet the viewer may not see). Both ship files take the filters of
``factions.web.filters.ShipFilter``; a bad filter is a 400 naming the field. One query
for the rows whatever their number (the campaign or fleet lookup apart).
"""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404

from campaign.core.csv_export import csv_response
from campaign.league.models import Campaign
from factions import fleet_cache
from factions.access import visible_fleets, visible_ships
from factions.commanders.records import commander_name
from factions.filters import FleetFilter, ShipFilter
from factions.models import Ship

FLEET_HEADER = (
    "faction", "fleet", "slug", "admiral", "territory", "hidden", "ships", "ships_afloat",
)  # fmt: skip
SHIP_HEADER = (
    "id", "faction", "fleet", "squadron", "ship", "class", "type", "captain", "status",
    "hull_lost", "hull_boxes", "armour_lost", "armour", "crew_lost", "crew_factors",
    "systems_lost", "points",
)  # fmt: skip

LOST = (Ship.Status.DESTROYED, Ship.Status.CAPTURED)


def _invalid(filters) -> HttpResponseBadRequest:
    text = "; ".join(f"{name}: {' '.join(errs)}" for name, errs in filters.form.errors.items())
    return HttpResponseBadRequest(text, content_type="text/plain; charset=utf-8")


def campaign_fleets_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The fleets of the campaign's factions the viewer may see, by faction then name:
    :data:`FLEET_HEADER` (``ships``: all its ships, ``ships_afloat``: not destroyed or
    captured). Filters: :class:`FleetFilter`."""
    campaign = get_object_or_404(Campaign, slug=slug)
    fleets = (
        visible_fleets(request.user)
        .filter(faction__in=campaign.factions.all())
        .select_related("faction", "territory", "admiral")
        .annotate(
            ship_count=Count("ships"),
            afloat=Count("ships", filter=~Q(ships__status__in=LOST)),
        )
        .order_by("faction__name", "name", "pk")
    )
    filters = FleetFilter(request.GET, queryset=fleets)
    if not filters.is_valid():
        return _invalid(filters)
    rows = (
        (
            f.faction.name,
            f.name,
            f.slug,
            commander_name(f, "admiral"),
            f.territory.name if f.territory else "",
            f.hidden,
            f.ship_count,
            f.afloat,
        )  # fmt: skip
        for f in filters.qs
    )
    return csv_response(f"{campaign.slug}-fleets.csv", FLEET_HEADER, rows)


def _ship_rows(ships: QuerySet) -> list[tuple]:
    ships = ships.select_related("fleet__faction", "squadron", "ship_class", "captain").defer(
        "ship_class__design", "notes"
    )
    return [
        (
            s.pk,
            s.fleet.faction.name,
            s.fleet.name,
            s.squadron.name if s.squadron else "",
            s.name,
            s.ship_class.name,
            s.ship_class.type_label,
            commander_name(s, "captain"),
            s.status,
            s.hull_lost,
            s.ship_class.hull_boxes,
            s.armour_lost,
            s.ship_class.armour,
            s.crew_lost,
            s.ship_class.crew_factors,
            " ".join(s.systems_lost or []),
            s.ship_class.points,
        )  # fmt: skip
        for s in ships.order_by("fleet__faction__name", "fleet__name", "name", "pk")
    ]


def _ships_csv(request: HttpRequest, ships: QuerySet, filename: str) -> HttpResponse:
    filters = ShipFilter(request.GET, queryset=ships)
    if not filters.is_valid():
        return _invalid(filters)
    return csv_response(filename, SHIP_HEADER, _ship_rows(filters.qs))


def campaign_ships_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The ships of the campaign's factions the viewer may see, with their damage
    (:data:`SHIP_HEADER`: boxes lost and the class's totals, systems lost by id)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    ships = visible_ships(request.user).filter(fleet__faction__in=campaign.factions.all())
    return _ships_csv(request, ships, f"{campaign.slug}-ships.csv")


def fleet_ships_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """One fleet's ships, as :func:`campaign_ships_csv` (404 for a hidden fleet the viewer
    may not see)."""
    fleet = fleet_cache.visible_fleet(request.user, slug)
    return _ships_csv(request, Ship.objects.filter(fleet=fleet), f"{fleet.slug}-ships.csv")
