"""The fleet page's body (``templates/factions/_fleet_body.html``): what it shows of a
fleet, read in a fixed number of queries, with each ship's row prepared once in Python.

Work done once (fast as fleets grow): each ship class is read once and shared
by its ships (``select_related`` decoded the class's whole ``design`` JSON once per
ship); a class's link is built once; gauges are :func:`gauge_html` calls, not an
included template with a translation block per gauge; numbers reach the template as
text (Django localises every integer it prints). A 100-ship body went from 45 ms to the
figure ``python -m bench.web`` prints (its "built every time" part).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils.html import format_html
from django.utils.safestring import SafeString

from campaign.core.markdown import render_markdown
from campaign.turns.repairs import fleet_repairs
from factions.fleet_totals import fleet_totals
from factions.models import Commander, Fleet, LightUnitGroup, Ship, ShipClass, Squadron
from factions.templatetags.gauges import gauge_html


@dataclass
class ShipRow:
    """One line of a squadron's table, ready to print."""

    status: str
    url: str
    label: str
    captain: Commander | None
    class_link: SafeString
    status_label: str
    hull: SafeString
    armour: SafeString | str  # "—" for a class without armour
    crew: SafeString
    systems_lost: str
    points: str


@dataclass
class SquadronRows:
    """A squadron of a fleet page (``squadron`` is None for ships outside any squadron)."""

    squadron: Squadron | None
    ships: list[ShipRow] = field(default_factory=list)


def fleet_ships(fleet: Fleet) -> list[Ship]:
    """``fleet``'s ships in page order (squadron, heaviest class first, name), each
    :class:`ShipClass` read once and shared by its ships, with its captain; two queries."""
    ships = list(
        fleet.ships.select_related("captain").order_by(
            "squadron__name", "-ship_class__mass", "name", "pk"
        )
    )
    classes = ShipClass.objects.order_by().in_bulk({s.ship_class_id for s in ships})
    for ship in ships:
        ship.ship_class = classes[ship.ship_class_id]
    return ships


class _RowMaker:
    """Builds :class:`ShipRow` s, making each class link, status label and gauge once
    per page (undamaged ships of a class share every gauge)."""

    def __init__(self) -> None:
        self.class_links: dict[int, SafeString] = {}
        self.gauges: dict[tuple[int, int], SafeString] = {}
        self.status_labels = {value: str(label) for value, label in Ship.Status.choices}

    def gauge(self, left: int, total: int) -> SafeString:
        if (left, total) not in self.gauges:
            self.gauges[left, total] = gauge_html(left, total)
        return self.gauges[left, total]

    def row(self, ship: Ship) -> ShipRow:
        k = ship.ship_class
        if k.pk not in self.class_links:
            self.class_links[k.pk] = format_html(
                '<a href="{}">{}</a> <span class="meta">{}</span>',
                k.get_absolute_url(),
                k.name,
                k.type_label,
            )
        return ShipRow(
            status=ship.status,
            url=ship.get_absolute_url(),
            label=ship.name or k.name,
            captain=getattr(ship, "captain", None),  # read with the ship (select_related)
            class_link=self.class_links[k.pk],
            status_label=self.status_labels.get(ship.status, ship.status),
            hull=self.gauge(ship.hull_left, k.hull_boxes),
            armour=self.gauge(ship.armour_left, k.armour) if k.armour else "—",
            crew=self.gauge(max(0, k.crew_factors - ship.crew_lost), k.crew_factors),
            systems_lost=str(len(ship.systems_lost or [])),
            points="—" if k.points is None else str(k.points),
        )


def body_context(fleet: Fleet) -> dict[str, Any]:
    """The context of ``factions/_fleet_body.html`` for ``fleet`` (read with its faction):
    ``squadrons`` ([:class:`SquadronRows`], then the ships outside any), ``light_units``,
    ``totals`` (``factions.fleet_totals``), ``repairs`` and the description's HTML."""
    ships = fleet_ships(fleet)
    squadrons_in_order = fleet.squadrons.select_related("commander").order_by("name", "pk")
    groups = {sq.pk: SquadronRows(sq) for sq in squadrons_in_order}
    loose = SquadronRows(None)
    rows = _RowMaker()
    for ship in ships:
        groups.get(ship.squadron_id, loose).ships.append(rows.row(ship))
    squadrons = list(groups.values()) + ([loose] if loose.ships else [])
    light_units = list(
        LightUnitGroup.objects.filter(Q(fleet=fleet) | Q(carrier__fleet=fleet))
        .select_related("carrier__ship_class", "territory")
        .defer("carrier__ship_class__design")  # only its name is shown
        .distinct()
        .order_by("name")
    )
    return {
        "fleet": fleet,
        "faction": fleet.faction,
        "description_html": render_markdown(fleet.description),
        "squadrons": squadrons,
        "light_units": light_units,
        "totals": fleet_totals(ships, light_units),
        "repairs": fleet_repairs(fleet),
    }
