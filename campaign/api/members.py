"""Membership and invitation endpoints (``/api/campaigns/{slug}/members`` and
``/api/campaigns/{slug}/invitations``): the members page's actions for scripts. Thin
handlers over ``campaign.league.members`` / ``campaign.league.invitations``: the
campaign's organisers and staff only (other members 403, anyone else 404, no user 401);
``MemberError`` answers 400 naming the field, ``MemberPermissionError`` 403, bad text 422
(``campaign/api/__init__.py``). Accepting an invitation is open to any logged-in user
holding its token."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from campaign.core.api_pages import array_page
from campaign.core.validation import clean_text
from campaign.league import invitations, members
from campaign.league.api_auth import api_auth
from campaign.league.members import MemberError
from campaign.league.models import Campaign, Invitation, Membership
from campaign.league.roles import require_organiser
from factions.models import Faction

router = Router(tags=["members"], auth=api_auth)


class MemberIn(Schema):
    username: str
    role: str
    faction: str | None = None


class RoleIn(Schema):
    role: str
    faction: str | None = None


class MemberOut(Schema):
    id: int
    username: str
    role: str
    faction: str | None


class InvitationIn(Schema):
    role: str
    faction: str | None = None
    email: str = ""


class InvitationOut(Schema):
    id: int
    role: str
    faction: str | None
    email: str
    state: str
    expires_at: datetime
    link: str | None = None


class AcceptIn(Schema):
    token: str
    # The code of the confirmation link mailed to the invited address (its last part),
    # for an invitation sent to one.
    confirmation: str = ""


@contextmanager
def _answers() -> Iterator[None]:
    """Bad input as a 400 (a refusal of the right is a ``Refused``: the root API answers
    it)."""
    try:
        yield
    except MemberError as exc:
        raise HttpError(400, str(exc)) from exc


def _organised(request: HttpRequest, slug: str) -> Campaign:
    """The campaign ``slug``: 404 for non-members, 403 for members who do not organise
    it (``require_organiser``)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(request.user, campaign)
    return campaign


def _faction(campaign: Campaign, slug: str | None) -> Faction | None:
    if not slug:
        return None
    slug = clean_text(slug, field=_("faction"), max_length=200)
    faction = campaign.factions.filter(slug=slug).first()
    if faction is None:
        raise HttpError(
            400,
            _("faction: '%(faction)s' does not play in %(campaign)s")
            % {"faction": slug, "campaign": campaign.name},
        )
    return faction


def _member(m: Membership) -> dict:
    return {
        "id": m.pk,
        "username": m.user.get_username(),
        "role": m.role,
        "faction": m.faction.slug if m.faction else None,
    }


def _invitation(i: Invitation, link: str | None = None) -> dict:
    return {
        "id": i.pk,
        "role": i.role,
        "faction": i.faction.slug if i.faction else None,
        "email": i.email,
        "state": i.state(),
        "expires_at": i.expires_at,
        "link": link,
    }


@router.get("/campaigns/{slug}/members", response=list[MemberOut])
@array_page()
def member_list(request: HttpRequest, response: HttpResponse, slug: str):
    """The campaign's members: user name, role, faction slug (players); ``limit``/``offset``
    (``X-Total-Count``: how many)."""
    return [_member(m) for m in members.members_of(_organised(request, slug))]


@router.post("/campaigns/{slug}/members", response={201: MemberOut})
def member_add(request: HttpRequest, slug: str, payload: MemberIn):
    """Give an existing user (``username``) a ``role`` (``faction`` slug for a player)."""
    campaign = _organised(request, slug)
    with _answers():
        m = members.membership_add_by_username(
            campaign=campaign,
            username=payload.username,
            role=payload.role,
            faction=_faction(campaign, payload.faction),
            by=request.user,
        )
    return Status(201, _member(m))


def _membership(campaign: Campaign, member_id: int) -> Membership:
    return get_object_or_404(
        Membership.objects.select_related("user", "faction"), pk=member_id, campaign=campaign
    )


@router.put("/campaigns/{slug}/members/{member_id}", response=MemberOut)
def member_change(request: HttpRequest, slug: str, member_id: int, payload: RoleIn):
    """Change a member's ``role`` and ``faction`` (slug; players only)."""
    campaign = _organised(request, slug)
    membership = _membership(campaign, member_id)
    with _answers():
        m = members.membership_change(
            membership=membership,
            role=payload.role,
            faction=_faction(campaign, payload.faction),
            by=request.user,
        )
    return _member(m)


@router.delete("/campaigns/{slug}/members/{member_id}", response={204: None})
def member_remove(request: HttpRequest, slug: str, member_id: int):
    """Remove a member's role (refused for the campaign's last organiser)."""
    campaign = _organised(request, slug)
    membership = _membership(campaign, member_id)
    with _answers():
        members.membership_remove(membership=membership, by=request.user)
    return Status(204, None)


@router.get("/campaigns/{slug}/invitations", response=list[InvitationOut])
@array_page()
def invitation_list(request: HttpRequest, response: HttpResponse, slug: str):
    """The campaign's pending invitations (their links are not kept: only shown once);
    ``limit``/``offset`` (``X-Total-Count``: how many)."""
    return [_invitation(i) for i in invitations.pending_invitations(_organised(request, slug))]


@router.post("/campaigns/{slug}/invitations", response={201: InvitationOut})
def invitation_create(request: HttpRequest, slug: str, payload: InvitationIn):
    """Create an invitation to ``role`` (``faction`` slug for a player), mailed to
    ``email`` when given; the answer's ``link`` is the only copy of it."""
    campaign = _organised(request, slug)
    with _answers():
        invitation, token = invitations.invitation_create(
            campaign=campaign,
            role=payload.role,
            faction=_faction(campaign, payload.faction),
            email=payload.email,
            by=request.user,
            link_base=request.build_absolute_uri("/").rstrip("/"),
        )
    link = request.build_absolute_uri(invitations.invitation_path(token))
    return Status(201, _invitation(invitation, link))


@router.post("/campaigns/{slug}/invitations/{invitation_id}/revoke", response=InvitationOut)
def invitation_revoke(request: HttpRequest, slug: str, invitation_id: int):
    """Revoke a pending invitation: its link stops working."""
    campaign = _organised(request, slug)
    invitation = get_object_or_404(
        Invitation.objects.select_related("faction"), pk=invitation_id, campaign=campaign
    )
    with _answers():
        return _invitation(invitations.invitation_revoke(invitation=invitation, by=request.user))


@router.post("/campaigns/{slug}/invitations/accept", response={201: MemberOut})
def invitation_accept(request: HttpRequest, slug: str, payload: AcceptIn):
    """Join ``slug`` with the invitation ``token`` (the last part of its link), as the
    calling user; an invitation sent to an address also needs ``confirmation``, the last
    part of the link mailed there (asked for on the invitation page). A token of another
    campaign, used, revoked or expired, a missing or wrong confirmation: 400."""
    campaign = get_object_or_404(Campaign, slug=slug)
    token = clean_text(payload.token, field=_("token"), max_length=100)
    with _answers():
        m = invitations.invitation_accept(
            token=token,
            user=request.user,
            campaign=campaign,
            confirmation=clean_text(payload.confirmation, field=_("confirmation"), max_length=300),
        )
    return Status(201, _member(m))
