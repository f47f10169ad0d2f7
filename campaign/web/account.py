"""The user's own account page (``/account/``): their roles, and their personal API
tokens, created and revoked here (``campaign.league.api_auth``). A new token is shown once."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.core.validation import TextError, clean_text
from campaign.league.api_auth import api_token_create, api_token_revoke
from campaign.league.models import ApiToken

MAX_TOKENS = 20


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The account page: memberships, tokens, and the token just created (once)."""
    return render(
        request,
        "campaign/account.html",
        {
            "memberships": request.user.memberships.select_related("campaign", "faction"),
            "tokens": list(ApiToken.objects.filter(user=request.user)),
            "new_token": request.session.pop("new_api_token", None),
        },
    )


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
