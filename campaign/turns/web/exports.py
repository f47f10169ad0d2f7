"""The ledger as a CSV download (``/campaigns/<slug>/ledger.csv``), scoped as the turn
page's ledger: organisers and staff every faction's rows, a player their factions' only;
other members 403, anyone else 404, anonymous users sent to log in. Oldest row first;
the reason in the reader's language (``campaign.core.stored_text``). One query for the
rows whatever their number.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from campaign.core.csv_export import csv_response
from campaign.core.stored_text import stored_text
from campaign.league.models import Campaign
from campaign.league.roles import require_faction_scope
from campaign.turns.models import LedgerEntry

LEDGER_HEADER = ("id", "turn", "faction", "kind", "resources", "technology", "reason", "by", "at")


def ledger_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """:data:`LEDGER_HEADER` rows of the ledger the user may read (``at``: ISO 8601, UTC)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    campaign = get_object_or_404(Campaign, slug=slug)
    seen = require_faction_scope(request.user, campaign)
    entries = LedgerEntry.objects.filter(campaign=campaign).select_related("faction", "user")
    if seen is not None:
        entries = entries.filter(faction_id__in=seen)
    rows = (
        (
            e.pk,
            e.turn,
            e.faction.name,
            e.kind,
            e.resources,
            e.technology,
            stored_text(e.reason, e.reason_message),
            e.user.get_username() if e.user else "",
            e.created_at.isoformat(),
        )  # fmt: skip
        for e in entries.order_by("created_at", "pk")
    )
    return csv_response(f"{campaign.slug}-ledger.csv", LEDGER_HEADER, rows)
