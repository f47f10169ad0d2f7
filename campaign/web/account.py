"""The user's own account page (``/account/``): their roles, the notifications they are
e-mailed (``campaign.notify.web``: saved there), and their personal API tokens, created and
revoked here (``campaign.league.api_auth``). A new token is shown once."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.core.validation import TextError, clean_text
from campaign.league.api_auth import api_token_create, api_token_revoke
from campaign.league.models import ApiToken
from campaign.notify.web import preferences_context

MAX_TOKENS = 20


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The account page: memberships, tokens, the token just created (once) and the
    password change form."""
    return _page(request, PasswordChangeForm(request.user))


def _page(request: HttpRequest, password_form: PasswordChangeForm, status: int = 200):
    return render(
        request,
        "campaign/account.html",
        {
            "memberships": request.user.memberships.select_related("campaign", "faction"),
            "tokens": list(ApiToken.objects.filter(user=request.user)),
            "new_token": request.session.pop("new_api_token", None),
            "password_form": password_form,
            **preferences_context(request.user),
        },
        status=status,
    )


@login_required
@require_POST
def password_change(request: HttpRequest) -> HttpResponse:
    """Change the user's password (``old_password``, ``new_password1``,
    ``new_password2``, checked by the site's password validators). The session stays
    logged in; the user's other sessions end. A refusal shows the account page again
    (400) with the field named; nothing is changed then."""
    form = PasswordChangeForm(request.user, request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    user = form.save()
    update_session_auth_hash(request, user)
    messages.success(request, _("Your password has been changed."))
    return redirect("account")


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    """Create a token named by the form's ``name``; it is shown once on the next page."""
    try:
        name = clean_text(request.POST.get("name", ""), field=_("name"), max_length=100)
    except TextError as exc:
        messages.error(request, str(exc))
        return redirect("account")
    if not name:
        messages.error(request, _("Give the token a name, e.g. the script that will use it."))
    elif ApiToken.objects.filter(user=request.user).count() >= MAX_TOKENS:
        messages.error(request, _("You have too many tokens; revoke one first."))
    else:
        _row, token = api_token_create(user=request.user, name=name)
        request.session["new_api_token"] = token
    return redirect("account")


@login_required
@require_POST
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke (delete) one of the user's tokens; another user's token is a 404."""
    if not api_token_revoke(user=request.user, token_id=pk):
        raise Http404
    messages.success(request, _("Token revoked."))
    return redirect("account")
