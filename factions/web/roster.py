"""A fleet's roster sheet as a PDF (``/fleets/<slug>/roster.pdf``): what a player takes to
the table — each ship's name, class, captain, damage (hull, armour and crew left, systems
lost) and its ship system diagram as it stands (``factions.ssd.draw``, damage crossed out).

A4, through the after-action reports' PDF pipeline (``battles.reports.context.pdf_from_html``:
WeasyPrint with the fetcher that reads only our static files, the report's stylesheets and
shipped fonts). Who may read it: who may see the fleet (404 otherwise, as the fleet page).
The rows are read in a fixed number of queries (``fleet_page.fleet_ships``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from battles.reports.context import pdf_from_html
from factions import fleet_cache
from factions.access import fleet_scope
from factions.models import Fleet, Ship
from factions.web.fleet_page import fleet_ships
from factions.web.pages import ship_diagram


@dataclass
class RosterShip:
    """One ship of the sheet: the ship (its class read once per class), what is left of
    its hull, armour and crew (``left``/``total``), the ids of systems lost, and its SSD
    (SVG markup, None when its class has no drawable design)."""

    ship: Ship
    hull: tuple[int, int]
    armour: tuple[int, int]
    crew: tuple[int, int]
    systems_lost: list[str]
    svg: SafeString | None


def roster_ships(fleet: Fleet) -> list[RosterShip]:
    """``fleet``'s ships in the fleet page's order, ready for the sheet."""
    out = []
    for ship in fleet_ships(fleet):
        k = ship.ship_class
        out.append(
            RosterShip(
                ship=ship,
                hull=(max(0, k.hull_boxes - ship.hull_lost), k.hull_boxes),
                armour=(max(0, k.armour - ship.armour_lost), k.armour),
                crew=(max(0, k.crew_factors - ship.crew_lost), k.crew_factors),
                systems_lost=[str(s) for s in ship.systems_lost or []],
                svg=ship_diagram(ship),
            )
        )
    return out


def roster_html(fleet: Fleet) -> str:
    """The page WeasyPrint lays out (``templates/factions/roster-print.html``)."""
    return render_to_string(
        "factions/roster-print.html",
        {"fleet": fleet, "ships": roster_ships(fleet), "printed": timezone.now()},
    )


def fleet_roster_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The roster sheet of the fleet ``slug`` (application/pdf, shown inline).

    Rendered once per version of the fleet data and language, then served from the fleet
    cache (``factions.fleet_cache``, as the fleet page): a 100-ship sheet is about a
    hundred pages of diagrams, seconds of WeasyPrint, which a second reader must not wait
    for again; any change to its ships gives the data a new version, so a new sheet."""
    fleet = fleet_cache.visible_fleet(request.user, slug)
    pdf = fleet_cache.cached(
        f"roster-{get_language()}",
        fleet,
        fleet_scope(request.user, fleet),
        lambda: pdf_from_html(roster_html(fleet)),
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{fleet.slug}-roster.pdf"'
    return response
