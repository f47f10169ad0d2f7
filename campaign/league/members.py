"""Who plays what in a campaign, run by its organisers from the web (``views_members``,
``api_members``): add, change and remove memberships. Invitations are in
``campaign.league.invitations``.

Every service is keyword-only and runs in one transaction; refusals raise
:class:`MemberError` (bad input; the message starts with the field) or
:class:`MemberPermissionError` (the acting user does not organise the campaign), before
anything is written. Each change is kept by django-simple-history with the acting user
(``Membership.history``). A campaign always keeps at least one organiser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from campaign.core.refusals import Refused
from campaign.core.validation import clean_text
from campaign.league.models import Campaign, Membership
from campaign.league.roles import User, is_organiser
from factions.models import Faction

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


class MemberError(ValueError):
    """A membership action that cannot be done; the message names the field. Nothing was
    written. The API answers 400."""


class MemberPermissionError(Refused, PermissionError):
    """The acting user does not organise the campaign: a forbidden
    :class:`~campaign.core.refusals.Refused` (403 on the pages and the API)."""


def check_organiser(user: User, campaign: Campaign) -> None:
    """Raise :class:`MemberPermissionError` unless ``user`` organises ``campaign`` (or is
    staff)."""
    if not is_organiser(user, campaign):
        raise MemberPermissionError(
            _("you do not organise %(campaign)s") % {"campaign": campaign.name}
        )


def check_role(*, campaign: Campaign, role: str, faction: Faction | None) -> None:
    """Raise :class:`MemberError` unless ``role`` is a ``Membership.Role`` and ``faction``
    is given exactly for a player, and plays in ``campaign``."""
    if role not in Membership.Role.values:
        raise MemberError(
            _("role: '%(role)s' is not one of %(roles)s")
            % {"role": role, "roles": ", ".join(Membership.Role.values)}
        )
    if role == Membership.Role.PLAYER:
        if faction is None:
            raise MemberError(_("faction: a player plays one faction; choose it"))
        if not campaign.factions.filter(pk=faction.pk).exists():
            raise MemberError(
                _("faction: %(faction)s does not play in %(campaign)s")
                % {"faction": faction.name, "campaign": campaign.name}
            )
    elif faction is not None:
        raise MemberError(
            _("faction: only players have a faction; this role is %(role)s")
            % {"role": Membership.Role(role).label}
        )


def _taken(*, campaign: Campaign, user: AbstractBaseUser, role: str, exclude: int | None) -> None:
    qs = Membership.objects.filter(campaign=campaign, user=user, role=role)
    if exclude is not None:
        qs = qs.exclude(pk=exclude)
    if qs.exists():
        raise MemberError(
            _("role: %(user)s already holds the role %(role)s in %(campaign)s")
            % {
                "user": user.get_username(),
                "role": Membership.Role(role).label,
                "campaign": campaign.name,
            }
        )


def _keep_an_organiser(membership: Membership) -> None:
    """Refuse to take away the campaign's last organiser (rows locked, so two organisers
    removing each other at once cannot both succeed)."""
    organisers = list(
        Membership.objects.select_for_update()
        .filter(campaign_id=membership.campaign_id, role=Membership.Role.ORGANISER)
        .values_list("pk", flat=True)
    )
    if organisers == [membership.pk]:
        raise MemberError(
            _(
                "role: %(user)s is the last organiser of %(campaign)s; make someone else an "
                "organiser first"
            )
            % {"user": membership.user.get_username(), "campaign": membership.campaign.name}
        )


def membership_add(
    *,
    campaign: Campaign,
    user: AbstractBaseUser,
    role: str,
    faction: Faction | None = None,
    by: User,
    check: bool = True,
) -> Membership:
    """Give ``user`` the ``role`` (with ``faction`` for a player) in ``campaign``; returns
    the new membership. ``by`` must organise the campaign unless ``check`` is False (an
    accepted invitation: the organiser checked when inviting). Raises
    :class:`MemberPermissionError`, or :class:`MemberError` for a bad role/faction or a
    role the user holds already."""
    if check:
        check_organiser(by, campaign)
    check_role(campaign=campaign, role=role, faction=faction)
    with transaction.atomic():
        _taken(campaign=campaign, user=user, role=role, exclude=None)
        membership = Membership(campaign=campaign, user=user, role=role, faction=faction)
        membership._history_user = by if getattr(by, "is_authenticated", False) else None
        membership.save()
        return membership


def membership_add_by_username(
    *,
    campaign: Campaign,
    username: str,
    role: str,
    faction: Faction | None = None,
    by: User,
) -> Membership:
    """Give the existing user named ``username`` the ``role`` in ``campaign`` (the members
    page's and the API's "add a member"); returns the new membership. Raises
    :class:`MemberPermissionError`, :class:`campaign.core.validation.TextError` for an unusable
    name, or :class:`MemberError` for no such user, a bad role/faction or a role the user
    holds already (``membership_add``)."""
    check_organiser(by, campaign)
    username = clean_text(username, field=_("username"), max_length=150)
    if not username:
        raise MemberError(_("username: give the user name of an existing account"))
    user = get_user_model()._default_manager.filter(username=username).first()
    if user is None:
        raise MemberError(_("username: no user '%(username)s'") % {"username": username})
    return membership_add(campaign=campaign, user=user, role=role, faction=faction, by=by)


def membership_change(
    *,
    membership: Membership,
    role: str,
    faction: Faction | None = None,
    by: User,
    check: bool = True,
) -> Membership:
    """Change ``membership``'s role and faction; returns it. ``by`` must organise the
    campaign unless ``check`` is False (``manage.py add_member``: whoever runs it on the
    server may). Raises :class:`MemberPermissionError`, or :class:`MemberError` for a bad
    role/faction, a role the user holds already, or the last organiser made something
    else."""
    campaign = membership.campaign
    if check:
        check_organiser(by, campaign)
    check_role(campaign=campaign, role=role, faction=faction)
    with transaction.atomic():
        if membership.role == Membership.Role.ORGANISER and role != Membership.Role.ORGANISER:
            _keep_an_organiser(membership)
        _taken(campaign=campaign, user=membership.user, role=role, exclude=membership.pk)
        membership.role, membership.faction = role, faction
        membership._history_user = by if getattr(by, "is_authenticated", False) else None
        membership.save(update_fields=["role", "faction"])
        return membership


def membership_remove(*, membership: Membership, by: User) -> None:
    """Remove ``membership`` (the history keeps it). Raises
    :class:`MemberPermissionError`, or :class:`MemberError` for the last organiser."""
    check_organiser(by, membership.campaign)
    with transaction.atomic():
        if membership.role == Membership.Role.ORGANISER:
            _keep_an_organiser(membership)
        membership._history_user = by
        membership.delete()


def members_of(campaign: Campaign) -> list[Membership]:
    """The campaign's memberships with their users and factions, by user name then role
    (one query however many members)."""
    return list(
        Membership.objects.filter(campaign=campaign)
        .select_related("user", "faction")
        .order_by("user__username", "role")
    )


def roles_of(*, user: AbstractBaseUser, campaign: Campaign) -> list[Membership]:
    """``user``'s memberships in ``campaign`` with their factions (one query); empty for
    an anonymous user."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        Membership.objects.filter(campaign=campaign, user=user)
        .select_related("faction")
        .order_by("role")
    )


def membership_history(campaign: Campaign, *, limit: int = 500) -> list[dict[str, Any]]:
    """Who joined, left or changed role in ``campaign``, newest first: dicts ``{"at":
    datetime, "user": username, "event": "joined" | "changed" | "left", "role": role
    label, "faction": faction name or "", "before": "role (faction)" before a change or
    "", "by": username of who acted or "" (a command or the system)}``. Read from the
    memberships' history rows (kept when a membership is removed); at most ``limit``."""
    rows = list(
        Membership.history.filter(campaign=campaign)
        .select_related("user", "faction", "history_user")
        .order_by("-history_date", "-history_id")[:limit]
    )
    # The previous row of each membership, for what a change replaced: one more query.
    earlier = {
        (r.id, r.history_id): r
        for r in Membership.history.filter(id__in={r.id for r in rows}).select_related("faction")
    }
    by_membership: dict[int, list[Any]] = {}
    for r in sorted(earlier.values(), key=lambda r: (r.history_date, r.history_id)):
        by_membership.setdefault(r.id, []).append(r)
    events = {"+": "joined", "~": "changed", "-": "left"}
    out = []
    for r in rows:
        before = ""
        if r.history_type == "~":
            chain = by_membership.get(r.id, [])
            i = next((k for k, h in enumerate(chain) if h.history_id == r.history_id), 0)
            if i > 0:
                before = _role_label(chain[i - 1].role, chain[i - 1].faction)
        out.append(
            {
                "at": r.history_date,
                "user": r.user.get_username() if r.user_id else "",
                "event": events.get(r.history_type, r.history_type),
                "role": _role_label(r.role, None),
                "faction": r.faction.name if r.faction_id else "",
                "before": before,
                "by": r.history_user.get_username() if r.history_user_id else "",
            }
        )
    return out


def _role_label(role: str, faction: Faction | None) -> str:
    label = str(Membership.Role(role).label) if role in Membership.Role.values else role
    return f"{label} ({faction.name})" if faction is not None else label
