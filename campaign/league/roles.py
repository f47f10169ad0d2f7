"""The league's role look-ups: who organises, plays or chronicles what, from
``Membership`` rows. The lowest of the scoping helpers: fleet and ship visibility
(``factions.access``), battle visibility (``battles.access``) and a closed turn's summary
(``campaign.turns.access``) build on these.

Rules:
- staff see everything and may change all league data;
- an organiser runs *their* campaigns: they see those campaigns' draft battles and may
  resolve, record and forecast them, and may import fleets and designs for the factions
  taking part in them; an organiser of campaign X is an outsider to campaign Y's drafts;
- an organiser sees the hidden fleets and notes of the factions taking part in the
  campaigns they organise (a faction may play in several), not those of other factions;
- a player sees public data plus the hidden data of their own faction(s);
- anyone else (anonymous, chronicler, outsider) sees public data only; chroniclers and
  organisers of a campaign edit and publish its reports (:func:`can_edit_reports`);
- the published site is built as the anonymous public (``user=None``).

The ``require_*`` checks raise :class:`~campaign.core.refusals.Refused`: 404 for someone
who is not a member of the campaign (its pages do not exist for them), 403 for a member
without the role. The system actor (``campaign.core.actors.SYSTEM``) passes every check.

Imports: ``campaign.league.models`` and ``campaign.core``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from django.utils.translation import gettext as _

from campaign.core.actors import is_system
from campaign.core.refusals import Kind, Refused
from campaign.league.models import Membership

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from campaign.league.models import Campaign
    from factions.models import Faction

User: TypeAlias = "AbstractBaseUser | AnonymousUser | None"


def is_organiser(user: User, campaign: Campaign | None = None) -> bool:
    """True for staff, and for organisers of ``campaign`` (None: of at least one
    campaign)."""

    if is_system(user):
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    memberships = Membership.objects.filter(user=user, role=Membership.Role.ORGANISER)
    if campaign is not None:
        memberships = memberships.filter(campaign_id=campaign.pk)
    return memberships.exists()


def organised_campaign_ids(user: User) -> set[int]:
    """Ids of the campaigns ``user`` organises (empty for anonymous users; staff are not
    listed here, check ``user.is_staff`` or :func:`is_organiser` for them)."""

    if user is None or not user.is_authenticated:
        return set()
    return set(
        Membership.objects.filter(user=user, role=Membership.Role.ORGANISER).values_list(
            "campaign_id", flat=True
        )
    )


def player_faction_ids(user: User) -> set[int]:
    """Ids of the factions ``user`` plays (empty for anonymous users and non-players)."""

    if user is None or not user.is_authenticated:
        return set()
    return set(
        Membership.objects.filter(user=user, role=Membership.Role.PLAYER)
        .exclude(faction=None)
        .values_list("faction_id", flat=True)
    )


def can_act_for_faction(user: User, campaign: Campaign, faction: Faction) -> bool:
    """True if ``user`` may give orders for ``faction`` in ``campaign`` (repairs,
    construction): staff, the campaign's organisers, and the faction's players in that
    campaign. The caller checks that ``faction`` plays in ``campaign``."""

    if is_system(user):
        return True
    if user is None or not user.is_authenticated:
        return False
    if is_organiser(user, campaign):
        return True
    return Membership.objects.filter(
        campaign_id=campaign.pk, user=user, role=Membership.Role.PLAYER, faction_id=faction.pk
    ).exists()


def campaign_faction_ids_for(user: User, campaign: Campaign) -> set[int] | None:
    """Factions of ``campaign`` whose treasury, yards and orders ``user`` may see: None
    for all (staff, organisers), the factions they play there for players, else empty."""

    if is_system(user):
        return None
    if user is None or not user.is_authenticated:
        return set()
    if is_organiser(user, campaign):
        return None
    return set(
        Membership.objects.filter(campaign_id=campaign.pk, user=user, role=Membership.Role.PLAYER)
        .exclude(faction=None)
        .values_list("faction_id", flat=True)
    )


def campaign_roles(user: User, campaign: Campaign) -> set[str]:
    """The roles ``user`` holds in ``campaign`` (``organiser``, ``player``,
    ``chronicler``); staff count as organisers of every campaign, and so does the system
    actor."""

    if is_system(user):
        return {Membership.Role.ORGANISER}
    if user is None or not user.is_authenticated:
        return set()
    roles = set(
        Membership.objects.filter(user=user, campaign_id=campaign.pk).values_list("role", flat=True)
    )
    if user.is_staff:
        roles.add(Membership.Role.ORGANISER)
    return roles


def can_edit_reports(user: User, campaign: Campaign) -> bool:
    """True if ``user`` may edit, preview, publish and withdraw the after-action reports
    of ``campaign``'s concluded battles, and read their unpublished drafts: staff, the
    campaign's organisers and its chroniclers (``Membership.Role.CHRONICLER``). A
    chronicler sees public data only otherwise: the drafts are written as the public
    (``battles.chronicle.report_draft_write``), so editing one reveals no secret."""

    if is_system(user):
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return Membership.objects.filter(
        user=user,
        campaign_id=campaign.pk,
        role__in=[Membership.Role.ORGANISER, Membership.Role.CHRONICLER],
    ).exists()


def require_member(user: User, campaign: Campaign) -> set[str]:
    """The roles ``user`` holds in ``campaign`` (:func:`campaign_roles`); raises
    :class:`Refused` (not found) for anyone without one."""

    roles = campaign_roles(user, campaign)
    if not roles:
        raise Refused(_("not found"), kind=Kind.NOT_FOUND)
    return roles


def require_organiser(user: User, campaign: Campaign, message: str = "") -> set[str]:
    """Pass staff, the campaign's organisers and the system actor; :class:`Refused`:
    not found for non-members, forbidden (``message``, or a general one) for other
    members. Returns the user's roles."""

    roles = require_member(user, campaign)
    if Membership.Role.ORGANISER not in roles:
        raise Refused(
            message
            or _("only an organiser of %(campaign)s may do this") % {"campaign": campaign.name}
        )
    return roles


def require_chronicler(user: User, campaign: Campaign, message: str = "") -> set[str]:
    """Pass those who edit ``campaign``'s reports (:func:`can_edit_reports`);
    :class:`Refused` as :func:`require_organiser`. Returns the user's roles."""

    roles = require_member(user, campaign)
    if not can_edit_reports(user, campaign):
        raise Refused(
            message
            or _("only a chronicler or organiser of %(campaign)s may do this")
            % {"campaign": campaign.name}
        )
    return roles


def require_player_of(user: User, campaign: Campaign, faction: Faction, message: str = "") -> None:
    """Pass those who give orders for ``faction`` in ``campaign``
    (:func:`can_act_for_faction`); :class:`Refused` as :func:`require_organiser`."""

    require_member(user, campaign)
    if not can_act_for_faction(user, campaign, faction):
        raise Refused(
            message or _("you do not give orders for %(faction)s") % {"faction": faction.name}
        )


def require_faction_scope(user: User, campaign: Campaign) -> set[int] | None:
    """The factions of ``campaign`` whose turn, treasury and orders ``user`` sees
    (:func:`campaign_faction_ids_for`: None for all); :class:`Refused` as
    :func:`require_organiser` for anyone who sees none (a chronicler: forbidden)."""

    require_member(user, campaign)
    seen = campaign_faction_ids_for(user, campaign)
    if seen is not None and not seen:
        raise Refused(_("only the organisers and the factions' players see the campaign turn"))
    return seen
