"""Services of the factions app: writes that span several models (HackSoft style).

``fleet_import`` turns a text fleet list (``factions/fleetlists.py``) into a Fleet, its Ships
and LightUnitGroups, in one transaction.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaign.core.limits import FLEET_LIST_MAX_LINES, FLEET_MAX_SHIPS
from campaign.core.validation import TextError, check_model_text, clean_text
from factions.catalogue_loader import catalogue_files, catalogue_read
from factions.commanders.records import commander_clean_name, commander_post
from factions.fleetlists import (
    SQUADRON_SIZE,
    FleetList,
    FleetListError,
    LightUnitEntry,
    LineError,
    fleet_list_parse,
)
from factions.models import Faction, Fleet, LightUnitGroup, Ship, ShipClass


class FleetImportError(ValueError):
    """A fleet that cannot be created for a reason other than its list (name, slug)."""


class UnknownFaction(LookupError):
    """No faction has this slug; the message lists the slugs there are."""


def faction_by_slug(*, slug: str) -> Faction:
    """The faction whose slug is ``slug``.

    Raises :class:`UnknownFaction` naming the slug and listing every faction's slug
    (``unknown faction "atlantis" (factions: phalon, qatzrin)``).
    """
    faction = Faction.objects.filter(slug=slug).first()
    if faction is None:
        slugs = ", ".join(Faction.objects.order_by("slug").values_list("slug", flat=True))
        raise UnknownFaction(f'unknown faction "{slug}" (factions: {slugs or "none yet"})')
    return faction


_KIND_LABELS = {
    "fighter": "fighters",
    "heavy-fighter": "heavy fighters",
    "long-range-fighter": "long-range fighters",
    "interceptor": "interceptors",
    "drone": "drones",
    "gunboat": "gunboats",
}


def _light_unit_label(entry: LightUnitEntry) -> str:
    """Base name of a group: its type ("Mijna"), a battery's weapon, or its kind."""
    if entry.kind == "battery":
        return f"Class-{entry.unit_type.removeprefix('beam-')} beam battery"
    return entry.unit_type or _KIND_LABELS[entry.kind]


def _light_unit_names(fleet_list: FleetList) -> dict[str, list[str]]:
    """Names for every group of the list, per base name: "Mijna 1", "Mijna 2"… when the
    fleet has several groups of one type, the bare name when it has one."""
    totals: Counter[str] = Counter()
    for ship in fleet_list.ships:
        for lu in ship.light_units:
            totals[_light_unit_label(lu)] += lu.count * ship.count
    for lu in fleet_list.light_units:
        totals[_light_unit_label(lu)] += lu.count
    return {
        label: [label] if n == 1 else [f"{label} {i}" for i in range(1, n + 1)]
        for label, n in totals.items()
    }


def _bay_errors(fleet_list: FleetList, classes: dict[str, ShipClass]) -> list[LineError]:
    """Squadrons a carrier line puts on each ship beyond the bays of its class design
    (``"kind": "bay"`` systems); classes without a design are not checked."""
    errors = []
    for entry in fleet_list.ships:
        systems = (classes[entry.class_name].design or {}).get("systems")
        if not systems or not entry.light_units:
            continue
        bays = sum(1 for s in systems if s.get("kind") == "bay")
        carried = 0
        for lu in entry.light_units:
            carried += lu.count
            if carried > bays:
                errors.append(
                    LineError(
                        lu.line,
                        ngettext(
                            "a %(ship_class)s has %(bays)s bay: %(carried)s squadrons do not fit",
                            "a %(ship_class)s has %(bays)s bays: %(carried)s squadrons do not fit",
                            bays,
                        )
                        % {"ship_class": entry.class_name, "bays": bays, "carried": carried},
                    )
                )
                break
    return errors


_SQUADRON_NUMBER = re.compile(r"\s+\d+$")


def _bay_squadron_names(designs: Iterable[dict[str, Any] | None]) -> set[str]:
    """Unit names of the squadrons in the bays of ``designs``, numbering dropped
    ("Mijna 2" -> "Mijna": the fleet list names the type, the design one squadron)."""
    return {
        _SQUADRON_NUMBER.sub("", str(s["squadron"]["name"])).strip()
        for design in designs
        for s in (design or {}).get("systems") or []
        if s.get("kind") == "bay"
        and isinstance(s.get("squadron"), dict)
        and s["squadron"].get("name")
    }


def faction_light_unit_names(*, faction: Faction) -> set[str]:
    """The squadron names a fleet list of ``faction`` may use ("Mijna", "Avna", "Nith").

    Union of the faction's catalogue light units (``factions/catalogue/<slug>.json``,
    ``light_units`` other than batteries), the squadrons in the bays of its catalogue class
    designs and those in the bays of its ``ShipClass.design`` documents in the database.
    Raises ``CatalogueError`` if a catalogue file is broken.
    """
    designs: list[dict[str, Any] | None] = list(
        ShipClass.objects.filter(faction=faction).values_list("design", flat=True)
    )
    names: set[str] = set()
    for path in catalogue_files():
        data = catalogue_read(path)
        if data["faction"]["slug"] != faction.slug:
            continue
        names |= {
            _SQUADRON_NUMBER.sub("", str(u["name"])).strip()
            for u in data.get("light_units", [])
            if u.get("unit") != "battery"
        }
        designs += data.get("classes", [])
    return names | _bay_squadron_names(designs)


def fleet_import(
    *,
    faction: Faction,
    text: str,
    fleet_name: str,
    admiral: str = "",
    hidden: bool = False,
) -> Fleet:
    """Create a fleet of ``faction`` from a text fleet list and return it.

    ``text`` uses the seed's notation (``factions/fleetlists.py``); class names are matched
    against ``faction``'s ship classes. Creates one ``Ship`` per hull (unnamed, undamaged),
    one ``LightUnitGroup`` of ``SQUADRON_SIZE`` craft per squadron (attached to its carrier,
    or based at the heading's place) and one per battery. ``admiral`` names the fleet's
    admiral: the faction's commander of that name, or a new one
    (``factions.commanders.records.commander_post``). The fleet's slug is
    ``slugify(fleet_name)``.

    Squadron names must be among :func:`faction_light_unit_names`; batteries are beam
    classes 1–3 (rules §8).

    Raises ``FleetListError`` (every line error, or squadrons beyond a carrier's bays) or
    :class:`FleetImportError` (empty name, a name with no letter or digit for its slug, slug
    already used; a name, admiral or heading with a NUL, a lone surrogate or longer than
    its column; more than ``campaign.core.limits.FLEET_LIST_MAX_LINES`` lines or
    ``FLEET_MAX_SHIPS`` ships); nothing is written then.
    """
    try:
        name = clean_text(
            fleet_name, field="name", max_length=Fleet._meta.get_field("name").max_length
        )
        admiral = commander_clean_name(admiral, field="admiral")
        clean_text(text, field="text")
    except TextError as exc:
        raise FleetImportError(str(exc)) from exc
    if text.count("\n") + 1 > FLEET_LIST_MAX_LINES:
        raise FleetImportError(
            _("the fleet list has %(lines)s lines; the limit is %(max)s")
            % {"lines": text.count("\n") + 1, "max": FLEET_LIST_MAX_LINES}
        )
    slug = slugify(name)
    if not name:
        raise FleetImportError(_("the fleet needs a name"))
    if not slug:
        raise FleetImportError(
            _('the fleet name "%(name)s" must contain letters or digits to make a slug')
            % {"name": name}
        )
    classes = {c.name: c for c in ShipClass.objects.filter(faction=faction)}
    fleet_list = fleet_list_parse(
        text, class_names=classes, light_unit_names=faction_light_unit_names(faction=faction)
    )
    if errors := _bay_errors(fleet_list, classes):
        raise FleetListError(errors)
    hull_count = sum(entry.count for entry in fleet_list.ships)
    if hull_count > FLEET_MAX_SHIPS:
        raise FleetImportError(
            _("the fleet list has %(ships)s ships; the limit is %(max)s a fleet")
            % {"ships": hull_count, "max": FLEET_MAX_SHIPS}
        )
    with transaction.atomic():
        if Fleet.objects.filter(slug=slug).exists():
            raise FleetImportError(
                _('a fleet with the slug "%(slug)s" already exists') % {"slug": slug}
            )
        fleet = Fleet.objects.create(faction=faction, name=name, slug=slug, hidden=hidden)
        if admiral:  # the faction's commander of that name, or a new one
            commander_post(faction=faction, name=admiral, fleet=fleet)
        hulls = [
            (entry, Ship(ship_class=classes[entry.class_name], fleet=fleet))
            for entry in fleet_list.ships
            for _ in range(entry.count)
        ]
        Ship.objects.bulk_create([ship for _, ship in hulls])
        names = {label: iter(ns) for label, ns in _light_unit_names(fleet_list).items()}

        def group(entry: LightUnitEntry, **where: object) -> LightUnitGroup:
            size = 1 if entry.kind == "battery" else SQUADRON_SIZE
            return LightUnitGroup(
                name=next(names[_light_unit_label(entry)]),
                kind=entry.kind,
                unit_type=entry.unit_type,
                faction=faction,
                fleet=fleet,
                size=size,
                strength=size,
                **where,
            )

        groups = [
            group(lu, carrier=ship)
            for entry, ship in hulls
            for lu in entry.light_units
            for _ in range(lu.count)
        ]
        groups += [
            group(lu, location=lu.section) for lu in fleet_list.light_units for _ in range(lu.count)
        ]
        # bulk_create skips pre_save: check each heading-made name and place here.
        for unit in groups:
            try:
                check_model_text(unit)
            except TextError as exc:
                raise FleetImportError(str(exc)) from exc
        LightUnitGroup.objects.bulk_create(groups)
    return fleet
