"""The campaign's standings as a CSV download (``/campaigns/<slug>/standings.csv``): the
campaign page's table, counted over the units of fleets the viewer may see
(``battles.standings.campaign_standings``), so a hidden fleet's losses are in a file only
for those who may see that fleet. Public, like the campaign page.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from battles.standings import campaign_standings
from campaign.core.csv_export import csv_response
from campaign.league.models import Campaign

STANDINGS_HEADER = ("faction", "battles", "won", "lost", "ships_lost", "light_units_lost")


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """:data:`STANDINGS_HEADER` rows in the page's order (most won first)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    rows = (
        (f.name, f.fought, f.won, f.lost, f.ships_lost, f.light_units_lost)
        for f in campaign_standings(campaign, user=request.user)
    )
    return csv_response(f"{campaign.slug}-standings.csv", STANDINGS_HEADER, rows)
