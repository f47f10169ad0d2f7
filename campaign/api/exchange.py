"""The whole campaign out and back in (``campaign.exchange``) for scripts.

``GET /api/campaigns/{slug}/export``: the campaign's JSON document, for its organisers and
staff (it holds hidden fleets and every side's orders; other members 403, anyone else
404, no user 401). ``POST /api/campaigns/import``: the body is a document; staff only (an
import creates a campaign, global factions and accounts: 403 otherwise); 201 with the new
campaign's slug, a 422 naming each bad JSON path (another ``version``, a dangling
reference), 409 naming the slug that exists here already; nothing written then. A body is
at most 2 MiB (``campaign.core.limits``): larger campaigns go through ``manage.py
import_campaign``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from campaign.core.api_errors import ErrorOut
from campaign.core.json_body import BodyShapeError, parse_object
from campaign.exchange.export import campaign_export, document_dumps
from campaign.exchange.load import campaign_import, require_importer
from campaign.league.api_auth import api_auth
from campaign.league.models import Campaign

router = Router(tags=["exchange"], auth=api_auth)


class ImportOut(Schema):
    """What an import made: the campaign's ``slug``, rows created by table, and the user
    names of the accounts created without a usable password."""

    slug: str
    rows: dict[str, int]
    users_created: list[str]


_DOCUMENT = {
    "type": "object",
    "description": 'A campaign document: {"schema": "admiralty-campaign", "version": 1, …}',
}


@router.get(
    "/campaigns/{slug}/export",
    response={200: dict[str, Any], 403: ErrorOut, 404: ErrorOut, 409: ErrorOut},
)
def campaign_export_view(request: HttpRequest, slug: str):
    """The whole campaign as one JSON document (``schema``, ``version``, ``campaign`` and
    one list a table: factions, designs, fleets, ships, battles with their logs, turns,
    orders, the ledger, members by user name)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    document = campaign_export(campaign=campaign, user=request.user)
    return HttpResponse(document_dumps(document), content_type="application/json")


@router.post(
    "/campaigns/import",
    response={201: ImportOut, 403: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": _DOCUMENT}}}
    },
)
def campaign_import_view(request: HttpRequest):
    """Create the campaign the body describes (a document written by an export)."""
    # The body's shape first, as every other write of the API (its root parser answers 422
    # before a view runs), then who may import.
    try:
        document = parse_object(request.body)
    except BodyShapeError as exc:
        raise HttpError(422, str(exc)) from exc
    except ValueError as exc:  # not JSON at all (an empty body too)
        shape = BodyShapeError(_("body: not JSON (%(error)s)") % {"error": exc})
        raise HttpError(422, str(shape)) from shape
    require_importer(request.user)
    result = campaign_import(document=document, user=request.user)
    return Status(
        201,
        {
            "slug": result.campaign.slug,
            "rows": result.rows,
            "users_created": result.users_created,
        },
    )
