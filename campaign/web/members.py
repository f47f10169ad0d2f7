"""The members page of a campaign (``/campaigns/<slug>/members/``) and the invitation
link (``/invitations/<token>/``). Thin: scope through the ``access`` helpers, call
``campaign.league.members`` / ``campaign.league.invitations``, show their errors as messages.

Who: the members page and its actions are for the campaign's organisers and staff
(anonymous users are sent to log in, anyone else gets 404). The invitation link is for
whoever holds it: a logged-in user joins, anyone else creates an account and joins.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.core.validation import TextError
from campaign.league import invitations, members
from campaign.league.members import MemberError
from campaign.league.models import Campaign, Invitation, Membership
from campaign.league.roles import require_organiser

LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _organised(request: HttpRequest, slug: str) -> Campaign:
    """The campaign ``slug`` if the user organises it; 404 for non-members (its existence
    is not revealed to them), 403 for its other members (``require_organiser``)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(request.user, campaign)
    return campaign


def _organisers_only(view):
    """Anonymous users go to log in (the view then 404s for non-organisers)."""

    def wrapped(request: HttpRequest, slug: str, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, slug, *args, **kwargs)

    wrapped.__name__, wrapped.__doc__ = view.__name__, view.__doc__
    return wrapped


def _faction(request: HttpRequest, campaign: Campaign):
    """The faction chosen in the form (``faction`` id among the campaign's), or None."""
    raw = request.POST.get("faction", "")
    if not raw:
        return None
    # An id longer than a bigint would be a DataError on PostgreSQL: refuse it here.
    ok = raw.isdigit() and len(raw) < 19
    faction = campaign.factions.filter(pk=int(raw)).first() if ok else None
    if faction is None:
        raise MemberError(_("faction: choose a faction of this campaign"))
    return faction


def _confirmed(request: HttpRequest) -> None:
    """Raise :class:`MemberError` unless the form's "I confirm" box was ticked (a removal
    or a revocation cannot be undone from the page)."""
    if not request.POST.get("confirm"):
        raise MemberError(_("Tick “I confirm” to go on; nothing was done."))


def _act(request: HttpRequest, campaign: Campaign, action, done: str) -> HttpResponse:
    try:
        action()
    except (MemberError, TextError) as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return redirect("campaign-members", slug=campaign.slug)


def _refused(values: dict, exc: Exception) -> dict:
    """``values`` typed in a form plus the refusal's ``error`` and ``error_field``: the
    field (a key of ``values``) the message starts with, in the reader's language
    ("faction : …"), or "" when it names none."""
    error = str(exc)
    field = next((f for f in values if error.startswith(_(_FIELD_NAMES.get(f, f)))), "")
    return {**values, "error": error, "error_field": field}


# The name a refusal gives a form field when it differs from the field's key.
_FIELD_NAMES = {"email": "e-mail"}


def _page(
    request: HttpRequest,
    campaign: Campaign,
    *,
    add: dict | None = None,
    invite: dict | None = None,
    status: int = 200,
) -> HttpResponse:
    """The members page; ``add`` / ``invite``: the "add a member" / "invite" form's values
    and ``error`` after a refusal (the page is then answered with ``status`` 400)."""
    listed = members.members_of(campaign)
    organisers = [m.pk for m in listed if m.role == Membership.Role.ORGANISER]
    return render(
        request,
        "campaign/members.html",
        {
            "campaign": campaign,
            "members": listed,
            # The last organiser cannot be removed (members.membership_remove): no button.
            "last_organiser": organisers[0] if len(organisers) == 1 else None,
            "invitations": invitations.pending_invitations(campaign),
            "factions": list(campaign.factions.order_by("name")),
            "roles": Membership.Role.choices,
            "new_link": request.session.pop("new_invitation_link", None),
            "add": add or {"role": Membership.Role.PLAYER},
            "invite": invite or {"role": Membership.Role.PLAYER},
        },
        status=status,
    )


@_organisers_only
def members_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Members with their roles and factions, the pending invitations, and the link of the
    invitation just made (shown once)."""
    return _page(request, _organised(request, slug))


@_organisers_only
def members_history(request: HttpRequest, slug: str) -> HttpResponse:
    """Who joined, left or changed role in the campaign, when and by whom (organisers;
    403 for its other members, 404 for anyone else)."""
    campaign = _organised(request, slug)
    return render(
        request,
        "campaign/members_history.html",
        {"campaign": campaign, "events": members.membership_history(campaign)},
    )


@require_POST
@_organisers_only
def member_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Give an existing user (``username``) a ``role`` (``faction`` id for a player): the
    API's ``POST /api/campaigns/{slug}/members``. A refusal shows the page again with the
    values typed and the message, which names the field."""
    campaign = _organised(request, slug)
    values = {k: request.POST.get(k, "") for k in ("username", "role", "faction")}
    try:
        membership = members.membership_add_by_username(
            campaign=campaign,
            username=values["username"],
            role=values["role"],
            faction=_faction(request, campaign),
            by=request.user,
        )
    except (MemberError, TextError) as exc:
        return _page(request, campaign, add=_refused(values, exc), status=400)
    messages.success(
        request,
        _("%(user)s added: %(role)s.")
        % {"user": membership.user.get_username(), "role": _role_text(membership)},
    )
    return redirect("campaign-members", slug=campaign.slug)


def _role_text(membership: Membership) -> str:
    """The role as the page shows it: "player (Faction)" or "organiser"."""
    if membership.faction:
        return _("%(role)s of %(faction)s") % {
            "role": membership.get_role_display(),
            "faction": membership.faction.name,
        }
    return str(membership.get_role_display())


@require_POST
@_organisers_only
def member_change(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Change a member's role and faction (``role``, ``faction`` id)."""
    campaign = _organised(request, slug)
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=pk, campaign=campaign
    )
    return _act(
        request,
        campaign,
        lambda: members.membership_change(
            membership=membership,
            role=request.POST.get("role", ""),
            faction=_faction(request, campaign),
            by=request.user,
        ),
        _("Role changed."),
    )


@require_POST
@_organisers_only
def member_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Remove a member's role (not the last organiser's)."""
    campaign = _organised(request, slug)
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=pk, campaign=campaign
    )

    def run() -> None:
        _confirmed(request)
        members.membership_remove(membership=membership, by=request.user)

    return _act(request, campaign, run, _("Member removed."))


@require_POST
@_organisers_only
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Create an invitation (``role``, ``faction`` id, optional ``email``); its link is
    shown once on the members page (and mailed when an address is given). A refusal shows
    the page again with the values typed and the message next to the field it names."""
    campaign = _organised(request, slug)
    values = {k: request.POST.get(k, "") for k in ("role", "faction", "email")}
    try:
        _invitation, token = invitations.invitation_create(
            campaign=campaign,
            role=values["role"],
            faction=_faction(request, campaign),
            email=values["email"],
            by=request.user,
            link_base=request.build_absolute_uri("/").rstrip("/"),
        )
    except (MemberError, TextError) as exc:
        return _page(request, campaign, invite=_refused(values, exc), status=400)
    request.session["new_invitation_link"] = request.build_absolute_uri(
        invitations.invitation_path(token)
    )
    messages.success(request, _("Invitation created."))
    return redirect("campaign-members", slug=campaign.slug)


@require_POST
@_organisers_only
def invitation_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Revoke a pending invitation: its link no longer works."""
    campaign = _organised(request, slug)
    invitation = get_object_or_404(Invitation, pk=pk, campaign=campaign)

    def run() -> None:
        _confirmed(request)
        invitations.invitation_revoke(invitation=invitation, by=request.user)

    return _act(request, campaign, run, _("Invitation revoked."))


def invitation(request: HttpRequest, token: str, code: str = "") -> HttpResponse:
    """The invitation link: GET shows the role offered and a join button (logged in) or a
    sign-up form; POST joins (logged in) or signs up, logs in and joins. An invitation
    sent to an address is joined from the confirmation link mailed there (``code``): POST
    without it mails one. A dead link gets a page saying why (404 unknown, 410 used,
    revoked or expired). The invited address is never shown."""
    found = invitations.invitation_find(token)
    if found is None or found.state() != Invitation.State.PENDING:
        state = found.state() if found else None
        return render(
            request,
            "campaign/members_invitation_dead.html",
            {"state": state, "invitation": found},
            status=404 if found is None else 410,
        )
    code = request.POST.get("confirmation", code)
    context = {
        "invitation": found,
        "role": invitations.role_label(found.role),
        "values": {"username": "", "email": ""},
        "needs_confirmation": invitations.needs_confirmation(found),
        "confirmation": code,
    }
    link_base = request.build_absolute_uri("/").rstrip("/")
    if request.user.is_authenticated:
        # Say what joining changes for someone who has a role there already.
        context["current_roles"] = members.roles_of(user=request.user, campaign=found.campaign)
    if request.method == "POST":
        try:
            if request.user.is_authenticated:
                if context["needs_confirmation"] and not code:
                    invitations.invitation_confirm_send(
                        token=token, user=request.user, link_base=link_base
                    )
                    context["confirmation_sent"] = True
                    return render(request, "campaign/members_invitation.html", context)
                invitations.invitation_accept(token=token, user=request.user, confirmation=code)
            else:
                context["values"] = {
                    "username": request.POST.get("username", ""),
                    "email": request.POST.get("email", ""),
                }
                user, joined = invitations.invitation_sign_up(
                    token=token,
                    username=request.POST.get("username", ""),
                    password=request.POST.get("password", ""),
                    email=request.POST.get("email", ""),
                    link_base=link_base,
                )
                login(request, user, backend=LOGIN_BACKEND)
                if joined is None:
                    context["confirmation_sent"] = True
                    return render(request, "campaign/members_invitation.html", context)
        except (MemberError, TextError) as exc:
            context["error"] = str(exc)
            return render(request, "campaign/members_invitation.html", context, status=400)
        welcome = {"campaign": found.campaign.name, "role": context["role"]}
        if found.faction_id:  # a player joins for a faction: say which one
            welcome["faction"] = found.faction.name
            text = _("Welcome to %(campaign)s: your role is %(role)s, for %(faction)s.")
        else:
            text = _("Welcome to %(campaign)s: your role is %(role)s.")
        messages.success(request, text % welcome)
        return redirect(found.campaign.get_absolute_url())
    return render(request, "campaign/members_invitation.html", context)


@login_required
def invitation_confirm(request: HttpRequest, token: str, code: str) -> HttpResponse:
    """The confirmation link mailed to an invitation's address: the invitation page with
    the code, for the account that asked for it (a visitor logs in first)."""
    return invitation(request, token, code)
