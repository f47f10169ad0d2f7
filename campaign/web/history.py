"""The campaign's history page for its organisers (``/campaigns/<slug>/history/``):
memberships, fleets, ships, battles, turns and ledger rows merged, newest first,
filtered (``campaign.history.filters``) and paginated (``campaign.core.listing``).

Who: the campaign's organisers and staff; its other members get 403, anyone else 404,
anonymous users are sent to log in.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from campaign.core.listing import listing
from campaign.history.events import history_events
from campaign.history.filters import campaign_history
from campaign.league.models import Campaign
from campaign.league.roles import require_organiser


def campaign_history_page(request: HttpRequest, slug: str) -> HttpResponse:
    """One page of the campaign's history (``kind``, ``who``, ``since``, ``until``,
    ``object``, ``page`` in the query string); a bad filter shows the form's error, naming
    the field, with status 400."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(request.user, campaign)
    filters, history = campaign_history(campaign, request.GET)
    page = listing(request, history) if history is not None else None
    return render(
        request,
        "campaign/history.html",
        {
            "campaign": campaign,
            "filters": filters,
            "listing": page,
            "events": history_events(list(page.rows)) if page else [],
        },
        status=200 if history is not None else 400,
    )
