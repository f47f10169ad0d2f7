"""A commander's page: rank, status, where they serve, renown and the battles that gave
it, and their biography. Thin: look up through ``factions.access.visible_commanders``
(a commander of a hidden fleet is 404 for whoever may not see that fleet), render.
"""

from __future__ import annotations

from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from battles.access import visible_battles
from campaign.core.markdown import render_markdown
from factions.access import commander_place, visible_commanders
from factions.commanders import renown
from factions.models import Commander, RenownAward

#: select_related for a commander's page and API answer: their place and its fleet.
PLACE = ("faction", "fleet", "squadron__fleet", "ship__fleet", "ship__ship_class")


def commander_awards(request: HttpRequest, commander: Commander) -> list[RenownAward]:
    """``commander``'s awards of battles the user may see, battle by battle (the battle
    read with them): one query."""
    return list(
        commander.awards.filter(battle__in=visible_battles(request.user))
        .select_related("battle")
        .order_by("battle__date", "battle__pk", "kind")
    )


def commander_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A commander the user may see (else 404)."""
    commander = get_object_or_404(visible_commanders(request.user).select_related(*PLACE), pk=pk)
    awards = commander_awards(request, commander)
    total = commander.awards.aggregate(total=Sum("points"))["total"] or 0
    return render(
        request,
        "factions/commander_detail.html",
        {
            "commander": commander,
            "faction": commander.faction,
            "place": commander_place(request.user, commander),
            "awards": awards,
            "renown": total,
            "biography_html": render_markdown(commander.biography),
            "rule": {
                "victory": renown.VICTORY,
                "kill": renown.PER_KILL,
                "survival": renown.SURVIVAL,
            },
        },
    )
