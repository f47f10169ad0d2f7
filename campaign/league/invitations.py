"""Invitations to a campaign's roles (``models_invitations.Invitation``): an organiser
creates one for a role (and a faction, for a player), optionally for an e-mail address
(the link is then sent with Django's mail API); whoever opens the link joins, logged in
or signing up in the same step (``invitation_sign_up``).

A link can be forwarded, so an invitation sent to an address is taken only by an account
that proves it holds that address: :func:`invitation_confirm_send` mails there a
confirmation link bound to the account (``django.core.signing.TimestampSigner``, valid as
long as the invitation), and :func:`invitation_accept` needs its code. No page, answer or
refusal shows the address to whoever holds the link.

The link's token is 256 random bits (``secrets.token_urlsafe``); only its SHA-256 is
stored, so the link is shown once, when it is made. A link works once, until it is
revoked or ``settings.INVITATION_EXPIRY_DAYS`` days have passed. Refusals raise
``members.MemberError`` / ``MemberPermissionError`` as the membership services do.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.core.throttle import allow
from campaign.core.validation import clean_text
from campaign.league.members import MemberError, check_organiser, check_role, membership_add
from campaign.league.models import Campaign, Invitation, Membership
from campaign.league.roles import User
from factions.models import Faction

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

EMAIL_MAX = 254
#: Confirmation mails per invitation and hour: each one goes to the invited address.
CONFIRMATIONS_PER_HOUR = 5
_CONFIRM_SALT = "admiralty.invitation-confirmation"


def token_hash(token: str) -> str:
    """SHA-256 (hex) of an invitation token, as stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def clean_email(value: str) -> str:
    """``value`` stripped, checked as text and as an address (empty allowed); raises
    ``TextError`` or :class:`MemberError` naming the e-mail field."""
    value = clean_text(value, field=_("e-mail"), max_length=EMAIL_MAX)
    if value:
        try:
            validate_email(value)
        except ValidationError as exc:
            raise MemberError(
                _("e-mail: '%(email)s' is not an e-mail address") % {"email": value}
            ) from exc
    return value


def invitation_create(
    *,
    campaign: Campaign,
    role: str,
    faction: Faction | None = None,
    email: str = "",
    by: User,
    link_base: str = "",
) -> tuple[Invitation, str]:
    """Create an invitation to ``role`` (``faction`` for a player) in ``campaign``; returns
    ``(invitation, token)``, the token to put in ``/invitations/<token>/`` (shown once).

    With ``email``, the link (``link_base`` + its path, e.g. ``https://host``) is mailed
    there once the transaction commits. Raises ``MemberPermissionError`` unless ``by``
    organises the campaign, ``MemberError``/``TextError`` naming the field otherwise.
    """
    check_organiser(by, campaign)
    check_role(campaign=campaign, role=role, faction=faction)
    email = clean_email(email)
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    with transaction.atomic():
        invitation = Invitation.objects.create(
            campaign=campaign,
            role=role,
            faction=faction,
            email=email,
            token_hash=token_hash(token),
            created_by=by,
            created_at=now,
            expires_at=now + timedelta(days=settings.INVITATION_EXPIRY_DAYS),
        )
        if email:
            link = link_base + invitation_path(token)
            transaction.on_commit(lambda: _mail(invitation, link))
    return invitation, token


def invitation_path(token: str) -> str:
    """The path of the link of ``token`` (``/invitations/<token>/``)."""
    from django.urls import reverse

    return reverse("invitation", kwargs={"token": token})


def _mail(invitation: Invitation, link: str) -> None:
    context = {
        "invitation": invitation,
        "role": role_label(invitation.role),
        "link": link,
        "days": settings.INVITATION_EXPIRY_DAYS,
    }
    send_mail(
        subject=_("Invitation to %(campaign)s") % {"campaign": invitation.campaign.name},
        message=render_to_string("campaign/members_invitation_email.txt", context),
        from_email=None,
        recipient_list=[invitation.email],
    )


def role_label(role: str) -> str:
    """The translated name of a ``Membership.Role`` value."""
    return str(Membership.Role(role).label) if role in Membership.Role.values else role


def invitation_revoke(*, invitation: Invitation, by: User) -> Invitation:
    """Revoke a pending invitation; returns it. Raises ``MemberPermissionError``, or
    ``MemberError`` when it is accepted, revoked or expired already."""
    check_organiser(by, invitation.campaign)
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        state = invitation.state()
        if state != Invitation.State.PENDING:
            raise MemberError(
                _("invitation: it is %(state)s already") % {"state": Invitation.State(state).label}
            )
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        return invitation


def invitation_find(token: str) -> Invitation | None:
    """The invitation whose link holds ``token`` (any state), or None."""
    if not token or len(token) > 100:
        return None
    return (
        Invitation.objects.select_related("campaign", "faction")
        .filter(token_hash=token_hash(token))
        .first()
    )


def _usable(token: str, campaign: Campaign | None = None) -> Invitation:
    """The pending invitation of ``token`` (to ``campaign`` when given), locked;
    ``MemberError`` otherwise."""
    invitation = (
        Invitation.objects.select_for_update()
        .select_related("campaign", "faction")
        .filter(token_hash=token_hash(token))
        .first()
    )
    if invitation is None or (campaign is not None and invitation.campaign_id != campaign.pk):
        raise MemberError(_("invitation: this link is not an invitation"))
    state = invitation.state()
    if state != Invitation.State.PENDING:
        raise MemberError(
            _("invitation: this link is %(state)s") % {"state": Invitation.State(state).label}
        )
    return invitation


def invitation_accept(
    *,
    token: str,
    user: AbstractBaseUser,
    campaign: Campaign | None = None,
    confirmation: str = "",
) -> Membership:
    """Give ``user`` the invitation's role in its campaign and use the invitation up;
    returns the membership. An invitation sent to an e-mail address needs
    ``confirmation``, the code of the link :func:`invitation_confirm_send` mailed there for
    this account; the account then takes that address if it had none. Raises
    ``MemberError`` if the link is unknown (or not one of ``campaign``'s, when given),
    used, revoked or expired, the confirmation is missing, another account's, forged or
    expired, or the user holds that role there already."""
    if not getattr(user, "is_authenticated", False):
        raise MemberError(_("invitation: log in or create an account to accept it"))
    with transaction.atomic():
        invitation = _usable(token, campaign)
        if invitation.email:
            # A forwarded link must not hand a role to someone else's account.
            _check_confirmation(invitation, user, confirmation)
            if not (getattr(user, "email", "") or "").strip():
                user.email = invitation.email
                user.save(update_fields=["email"])
        membership = membership_add(
            campaign=invitation.campaign,
            user=user,
            role=invitation.role,
            faction=invitation.faction,
            by=user,
            check=False,
        )
        invitation.accepted_by, invitation.accepted_at = user, timezone.now()
        invitation.save(update_fields=["accepted_by", "accepted_at"])
        return membership


def needs_confirmation(invitation: Invitation) -> bool:
    """Whether taking ``invitation`` needs a confirmation mailed to its address."""
    return bool(invitation.email)


def _confirmation_value(invitation: Invitation, user: AbstractBaseUser) -> str:
    # The address is bound by a digest: a signed value is readable, and the code must
    # not show the address to someone it was forwarded to.
    digest = hashlib.sha256(invitation.email.strip().lower().encode()).hexdigest()[:16]
    return f"{invitation.pk}:{user.pk}:{digest}"


def confirmation_code(invitation: Invitation, user: AbstractBaseUser) -> str:
    """The signed code proving that ``user`` received mail at ``invitation``'s address."""
    return signing.TimestampSigner(salt=_CONFIRM_SALT).sign(_confirmation_value(invitation, user))


def _check_confirmation(invitation: Invitation, user: AbstractBaseUser, code: str) -> None:
    if not code:
        raise MemberError(
            _(
                "invitation: it was sent to an e-mail address; follow the confirmation "
                "link mailed to that address to take it"
            )
        )
    try:
        value = signing.TimestampSigner(salt=_CONFIRM_SALT).unsign(
            code, max_age=timedelta(days=settings.INVITATION_EXPIRY_DAYS)
        )
    except signing.BadSignature:
        value = None
    if value != _confirmation_value(invitation, user):
        raise MemberError(
            _(
                "invitation: this confirmation link is not valid for your account or has "
                "expired; ask for a new one on the invitation page"
            )
        )


def invitation_confirm_send(*, token: str, user: AbstractBaseUser, link_base: str = "") -> None:
    """Mail to the address ``token``'s invitation was sent to a link that lets ``user``
    take it (``/invitations/<token>/confirm/<code>/``, ``link_base`` before it), once the
    transaction commits. Raises ``MemberError`` for a dead link, an invitation sent to no
    address, an anonymous user, or more than :data:`CONFIRMATIONS_PER_HOUR` mails."""
    from django.urls import reverse

    if not getattr(user, "is_authenticated", False):
        raise MemberError(_("invitation: log in or create an account to accept it"))
    with transaction.atomic():
        invitation = _usable(token)
        if not invitation.email:
            raise MemberError(_("invitation: it needs no confirmation"))
        if not allow(
            "invitation-confirm", str(invitation.pk), limit=CONFIRMATIONS_PER_HOUR, window=3600
        ):
            raise MemberError(_("invitation: too many confirmation mails; try again in an hour"))
        path = reverse(
            "invitation-confirm",
            kwargs={"token": token, "code": confirmation_code(invitation, user)},
        )
        context = {
            "invitation": invitation,
            "role": role_label(invitation.role),
            "username": user.get_username(),
            "link": link_base + path,
        }
        transaction.on_commit(
            lambda: send_mail(
                subject=_("Confirm your invitation to %(campaign)s")
                % {"campaign": invitation.campaign.name},
                message=render_to_string("campaign/members_invitation_confirm_email.txt", context),
                from_email=None,
                recipient_list=[invitation.email],
            )
        )


def invitation_sign_up(
    *, token: str, username: str, password: str, email: str = "", link_base: str = ""
) -> tuple[AbstractBaseUser, Membership | None]:
    """Create an account (``username``, ``password`` checked by Django's password
    validators, optional ``email``) and accept the invitation with it, in one
    transaction; returns ``(user, membership)``. For an invitation sent to an address the
    account is created and the confirmation mailed (:func:`invitation_confirm_send`);
    the membership is then None until it is followed. Raises ``MemberError`` naming the
    field (``username``, ``password``, ``e-mail``, ``invitation``)."""
    model = get_user_model()
    field = model._meta.get_field(model.USERNAME_FIELD)
    username = clean_text(username, field=_("username"), max_length=field.max_length)
    email = clean_email(email)
    if not username:
        raise MemberError(_("username: choose a user name"))
    try:
        field.run_validators(username)
    except ValidationError as exc:
        raise MemberError(_("username: %(why)s") % {"why": " ".join(exc.messages)}) from exc
    if model._default_manager.filter(**{f"{field.name}__iexact": username}).exists():
        raise MemberError(_("username: '%(username)s' is taken") % {"username": username})
    candidate = model(**{field.name: username, "email": email})
    try:
        validate_password(password, user=candidate)
    except ValidationError as exc:
        raise MemberError(_("password: %(why)s") % {"why": " ".join(exc.messages)}) from exc
    with transaction.atomic():
        invitation = _usable(token)  # refuse a dead link before creating the account
        user = model._default_manager.create_user(username, email=email, password=password)
        if needs_confirmation(invitation):
            invitation_confirm_send(token=token, user=user, link_base=link_base)
            return user, None
        return user, invitation_accept(token=token, user=user)


def pending_invitations(campaign: Campaign) -> list[Invitation]:
    """The campaign's invitations that may still be accepted, newest first (one query)."""
    now = timezone.now()
    return list(
        Invitation.objects.filter(
            campaign=campaign, accepted_at=None, revoked_at=None, expires_at__gt=now
        ).select_related("faction")
    )
