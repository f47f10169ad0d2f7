"""The fog of war's API (django-ninja router mounted at ``/api/``): the organisers'
reveals. Thin: scoped through ``require_organiser`` (non-members 404, other members 403),
then ``campaign.fog.reveals``; a refusal is answered by the root API from its
``Refused`` (422 naming ``fleet`` or ``faction``, 409). Needs a logged-in session or
token (401 otherwise).
"""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router, Schema, Status

from campaign.core.refusals import Kind, Refused
from campaign.fog import reveals
from campaign.fog.models import Reveal
from campaign.league.api_auth import api_auth
from campaign.league.models import Campaign
from campaign.league.roles import require_organiser
from factions.models import Fleet

router = Router(tags=["map"], auth=api_auth)


class RevealIn(Schema):
    fleet: str
    faction: str


class RevealOut(Schema):
    id: int
    fleet: str
    faction: str
    revealed_by: str | None
    revealed_at: datetime
    revoked_by: str | None
    revoked_at: datetime | None


def _out(r: Reveal) -> dict:
    return {
        "id": r.pk,
        "fleet": r.fleet.slug,
        "faction": r.faction.slug,
        "revealed_by": r.revealed_by.get_username() if r.revealed_by else None,
        "revealed_at": r.revealed_at,
        "revoked_by": r.revoked_by.get_username() if r.revoked_by else None,
        "revoked_at": r.revoked_at,
    }


def _organised(request: HttpRequest, slug: str) -> Campaign:
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(request.user, campaign)
    return campaign


def _rows(campaign: Campaign):
    return Reveal.objects.filter(campaign=campaign).select_related(
        "fleet", "faction", "revealed_by", "revoked_by"
    )


@router.get("/campaigns/{slug}/map/reveals", response=list[RevealOut])
def reveal_list(request: HttpRequest, slug: str):
    """Every reveal of the campaign, live and revoked, latest first."""
    return [_out(r) for r in _rows(_organised(request, slug))]


@router.post("/campaigns/{slug}/map/reveals", response={201: RevealOut})
def reveal_create(request: HttpRequest, slug: str, payload: RevealIn):
    """Reveal the hidden ``fleet`` (slug) to ``faction`` (slug) until revoked."""
    campaign = _organised(request, slug)
    # Only the campaign's fleets: another campaign's hidden fleet is "no fleet" here, never
    # named in a refusal.
    fleet = Fleet.objects.filter(slug=payload.fleet, faction__in=campaign.factions.all()).first()
    if fleet is None:
        text = _("fleet: no fleet '%(fleet)s'") % {"fleet": payload.fleet}
        raise Refused(text, kind=Kind.INVALID, errors=[("fleet", text)])
    faction = campaign.factions.filter(slug=payload.faction).first()
    if faction is None:
        text = _("faction: no faction '%(faction)s' in this campaign") % {
            "faction": payload.faction
        }
        raise Refused(text, kind=Kind.INVALID, errors=[("faction", text)])
    reveal = reveals.reveal_fleet(
        campaign=campaign, fleet=fleet, faction=faction, user=request.user
    )
    return Status(201, _out(_rows(campaign).get(pk=reveal.pk)))


@router.post("/campaigns/{slug}/map/reveals/{reveal_id}/revoke", response=RevealOut)
def reveal_revoke(request: HttpRequest, slug: str, reveal_id: int):
    """Revoke a live reveal (the faction keeps its last-known position)."""
    campaign = _organised(request, slug)
    reveal = get_object_or_404(_rows(campaign), pk=reveal_id)
    reveals.reveal_revoke(reveal=reveal, user=request.user)
    return _out(_rows(campaign).get(pk=reveal.pk))
