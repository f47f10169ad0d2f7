"""Ship designs API (django-ninja router mounted at ``/api/designs``).

- ``GET  /api/designs``               every ship class, summary (public)
- ``GET  /api/designs/{id}``          one class with its design document (public)
- ``GET  /api/designs/{id}/ssd.svg``  its ship system diagram (``factions.ssd.draw``)
- ``GET  /api/designs/{id}/export``   its design document, our format (public)
- ``GET  /api/designs/export?faction=SLUG``  a faction's catalogue file, our format (public)
- ``POST /api/designs``               create a class from a design document (organisers)
- ``POST /api/designs/validate``      every error of a design, each with its field (anyone)
- ``POST /api/designs/import``        ftLibShip or admiralty JSON (organisers)

Handlers are thin: check access through the ``access`` helpers, call ``factions.designs.schema`` /
``factions.designs.imports``, serialise. Errors carry the field they are about
(``systems[3].magazine``), as ``factions.designs.validation.design_validate`` names them.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from ninja import Body, Router, Schema, Status

from campaign.core.api_errors import ErrorOut, FieldError
from campaign.core.api_pages import array_page
from campaign.core.csp import nonce_styles
from campaign.core.refusals import Refused
from campaign.league.api_auth import api_auth
from campaign.league.roles import is_organiser
from factions.access import organises_faction
from factions.designs import validation
from factions.designs.imports import (
    FORMATS,
    ImportFormatError,
    designs_parse,
    designs_save,
    export_catalogue,
    export_design,
)
from factions.designs.validation import design_validate
from factions.models import Faction, ShipClass
from factions.ssd.draw import design_svg

router = Router(tags=["designs"])


class DesignSummaryOut(Schema):
    id: int
    name: str
    slug: str
    faction: str
    type_word: str
    mass: int
    hull_boxes: int
    armour: int
    thrust: int
    points: int | None
    provisional: bool

    @staticmethod
    def resolve_faction(obj: ShipClass) -> str:
        return obj.faction.slug


class DesignDetailOut(DesignSummaryOut):
    crew_factors: int
    design: dict[str, Any]
    ssd_url: str

    @staticmethod
    def resolve_ssd_url(obj: ShipClass) -> str:
        return f"/api/designs/{obj.pk}/ssd.svg"


class ValidationOut(Schema):
    """``valid`` and every error with its field; ``points`` (one ship, without the squadrons
    in its bays) and ``mass`` (systems total) when the design is valid."""

    valid: bool
    errors: list[FieldError]
    points: int | None = None
    mass: int | None = None


class ImportIn(Schema):
    """``data`` is the parsed JSON file (ftLibShip ships or admiralty designs)."""

    faction: str
    data: Any
    format: str = "auto"
    dry_run: bool = False
    replace: bool = False
    """Also rewrite classes that already have ships (otherwise they are kept and listed)."""


class UnmappedOut(Schema):
    ship: str
    system: str
    reason: str


class InvalidOut(Schema):
    ship: str
    field: str
    message: str


class PointsMismatchOut(Schema):
    """A design stored with its printed points, which differ from its construction."""

    ship: str
    printed: int
    computed: int
    message: str


class ImportedDesignOut(Schema):
    name: str
    type_word: str
    mass: int
    points: int | None
    provisional: bool


class ImportOut(Schema):
    detail: str
    format: str = ""
    designs: list[ImportedDesignOut] = []
    unmapped: list[UnmappedOut] = []
    invalid: list[InvalidOut] = []
    points_mismatch: list[PointsMismatchOut] = []
    written: int = 0
    kept: list[str] = []


@router.get("", response=list[DesignSummaryOut])
@array_page()
def design_list(request: HttpRequest, response: HttpResponse):
    """Every ship class (designs are public: the published catalogue), by faction, mass and
    name; ``limit``/``offset`` (``X-Total-Count``: how many)."""
    return ShipClass.objects.select_related("faction").order_by(
        "faction__name", "mass", "name", "pk"
    )


@router.get("/{int:design_id}", response=DesignDetailOut)
def design_detail(request: HttpRequest, design_id: int):
    """One ship class with its full design document."""
    return get_object_or_404(ShipClass.objects.select_related("faction"), pk=design_id)


@router.get("/export", response={200: dict[str, Any], 404: ErrorOut})
def design_export_catalogue(request: HttpRequest, faction: str):
    """Every class of a faction as a catalogue file in our format (import it back as is)."""
    found = Faction.objects.filter(slug=faction).first()
    if found is None:
        return Status(404, _unknown_faction(faction))
    return Status(200, export_catalogue(found))


@router.get("/{int:design_id}/export", response=dict[str, Any])
def design_export(request: HttpRequest, design_id: int):
    """One class's design document in our format (``factions.designs.imports.export_design``)."""
    return export_design(
        get_object_or_404(ShipClass.objects.select_related("faction"), pk=design_id)
    )


@router.get("/{int:design_id}/ssd.svg")
def design_ssd(request: HttpRequest, design_id: int) -> HttpResponse:
    """The class's SSD as SVG (``factions.ssd.draw.design_svg``), 190 mm wide for A4."""
    sc = get_object_or_404(ShipClass.objects.select_related("faction"), pk=design_id)
    design = sc.design_document
    # Opened on its own, the SVG's <style> needs the response's CSP nonce (campaign.core.csp).
    svg = nonce_styles(design_svg(design, faction_name=sc.faction.name), request)
    return HttpResponse(svg, content_type="image/svg+xml")


@router.post("/validate", response=ValidationOut)
def design_validate_view(request: HttpRequest, payload: dict[str, Any] = Body(...)):  # noqa: B008
    """Validate a design document; 200 with ``valid`` and every error with its field."""
    design, errors = design_validate(payload)
    if design is None or errors:
        return {
            "valid": False,
            "errors": [{"field": e.field, "message": e.message} for e in errors],
        }
    return {
        "valid": True,
        "errors": [],
        "points": validation.design_points(design),
        "mass": validation.design_mass(design),
    }


def _unknown_faction(slug: str) -> dict[str, str]:
    return {"detail": _("unknown faction '%(faction)s'") % {"faction": slug}}


DESIGN_FORMAT = "admiralty-design/1"


def _design_shape_errors(payload: dict[str, Any]) -> list[dict[str, str]]:
    """What makes ``payload`` something other than one design document, field by field
    (checked before the rules: a catalogue or a format-less document is a 422, not a 500).
    """
    errors = []
    if "classes" in payload:
        errors.append(
            {
                "field": "classes",
                "message": "POST /api/designs takes one design; send a catalogue to "
                "POST /api/designs/import",
            }
        )
    if payload.get("format") != DESIGN_FORMAT:
        errors.append({"field": "format", "message": f"must be '{DESIGN_FORMAT}'"})
    name = payload.get("name")
    if isinstance(name, str) and name.strip() and not slugify(name):
        errors.append({"field": "name", "message": "must contain a letter or a digit"})
    return errors


@router.post(
    "",
    response={
        201: DesignDetailOut,
        403: ErrorOut,
        404: ErrorOut,
        409: ErrorOut,
        422: ErrorOut,
    },
    auth=api_auth,
)
def design_create(request: HttpRequest, payload: dict[str, Any] = Body(...)):  # noqa: B008
    """Create a ship class from one design document (organisers only).

    The faction is the design's ``faction`` slug. 422 lists every error with its field
    (``format``, ``classes``, ``name``, ``systems[3].arcs``…); 409 when the faction already
    has a class of that name; nothing is written then (one transaction).
    """
    if not is_organiser(request.user):
        raise Refused(_("only organisers may create designs"))
    slug = str(payload.get("faction") or "")
    faction = Faction.objects.filter(slug=slug).first()
    if faction is None:
        return Status(404, _unknown_faction(slug))
    if not organises_faction(request.user, faction):
        detail = _("only organisers of a campaign of '%(faction)s' may create its designs")
        raise Refused(detail % {"faction": faction.slug})
    errors = _design_shape_errors(payload)
    if errors:
        return Status(422, {"detail": _("invalid design"), "errors": errors})
    result = designs_parse(payload, faction=faction.slug, format="admiralty")
    if result.invalid or len(result.designs) != 1:
        errors = [{"field": e.field, "message": e.message} for e in result.invalid]
        return Status(422, {"detail": _("invalid design"), "errors": errors})
    name = result.designs[0]["name"]
    with transaction.atomic():
        if ShipClass.objects.filter(faction=faction, slug=slugify(name)).exists():
            detail = _("%(faction)s already has a class named '%(name)s'")
            return Status(409, {"detail": detail % {"faction": faction.name, "name": name}})
        (ship_class,) = designs_save(faction=faction, result=result)
    return Status(201, ship_class)


@router.post(
    "/import",
    response={
        200: ImportOut,
        201: ImportOut,
        400: ImportOut,
        403: ErrorOut,
        404: ErrorOut,
    },
    auth=api_auth,
)
def design_import(request: HttpRequest, payload: ImportIn):
    """Import designs (organisers only), as ``manage.py import_designs`` does.

    ftLibShip ships are all written, each one that does not validate marked provisional;
    admiralty designs are written only if every one validates (else 400, nothing written).
    A class that has ships is kept (listed in ``kept``) unless ``replace`` is true; a
    replacement dropping a system id an existing ship has lost is a 400, nothing written.
    The answer lists every system not mapped and every validation error, per ship, and
    in ``points_mismatch`` every design whose printed points differ from its construction
    (stored with the printed figure).
    """
    if not is_organiser(request.user):
        raise Refused(_("only organisers may import designs"))
    faction = Faction.objects.filter(slug=payload.faction).first()
    if faction is None:
        return Status(404, _unknown_faction(payload.faction))
    if not organises_faction(request.user, faction):
        detail = _("only organisers of a campaign of '%(faction)s' may import its designs")
        raise Refused(detail % {"faction": faction.slug})
    if payload.format not in FORMATS:
        return Status(
            400,
            {
                "detail": _("unknown format '%(format)s' (one of %(formats)s)")
                % {"format": payload.format, "formats": ", ".join(FORMATS)}
            },
        )
    try:
        result = designs_parse(payload.data, faction=faction.slug, format=payload.format)
    except ImportFormatError as exc:
        return Status(400, {"detail": str(exc)})
    body: dict[str, Any] = {
        "format": result.format,
        "designs": [
            {
                "name": d["name"],
                "type_word": d.get("type_word", ""),
                "mass": d["mass"],
                "points": d.get("points"),
                "provisional": d.get("provisional", True),
            }
            for d in result.designs
        ],
        "unmapped": [u._asdict() for u in result.unmapped],
        "invalid": [e._asdict() for e in result.invalid],
        "points_mismatch": [{**m._asdict(), "message": str(m)} for m in result.points_mismatch],
        "written": 0,
    }
    if payload.dry_run:
        return Status(200, {**body, "detail": _("dry run, nothing written")})
    try:
        saved = designs_save(
            faction=faction,
            result=result,
            replace=payload.replace,
        )
    except ValueError as exc:
        return Status(400, {**body, "detail": _("nothing written: %(error)s") % {"error": exc}})
    # Data for scripts, as the import command prints it (its reasons are the importer's).
    kept = [f'kept: {k}; use "replace": true' for k in result.kept]
    n = len(saved)
    detail = ngettext("%(n)d ship class written", "%(n)d ship classes written", n) % {"n": n}
    if kept:
        detail = _("%(written)s, %(n)d kept") % {"written": detail, "n": len(kept)}
    return Status(201, {**body, "detail": detail, "written": len(saved), "kept": kept})
