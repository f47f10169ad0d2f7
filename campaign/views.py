"""League pages: thin views that look up, scope through ``campaign.access`` and render."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Count, F, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from battles.models import Battle, Participant
from battles.reports import render_markdown
from factions.models import Faction

from . import access
from .models import Campaign

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

RECENT_BATTLES = 10
LOST_FATES = (Participant.Fate.DESTROYED, Participant.Fate.CAPTURED)


def recent_battles(
    user: AbstractBaseUser | AnonymousUser | None, campaign: Campaign | None = None
) -> QuerySet[Battle]:
    """Battles ``user`` (None: the public) may see, latest first (by date, then campaign
    turn, then creation)."""
    qs = access.visible_battles(user).select_related("campaign", "winner")
    if campaign is not None:
        qs = qs.filter(campaign=campaign)
    return qs.order_by(
        F("date").desc(nulls_last=True),
        F("campaign_turn").desc(nulls_last=True),
        "-created_at",
        "-pk",
    )


def campaign_standings(campaign: Campaign) -> list[Faction]:
    """The factions of ``campaign`` with their record in its concluded battles.

    Each faction gets ``fought``, ``won`` and ``lost`` (battles) and ``ships_lost`` (ships
    destroyed or captured; light units do not count); a side wins when it is marked
    ``is_winner`` or its faction is the battle's ``winner``. Sorted by wins, then fewest
    losses, then name.
    One query whatever the number of battles.
    """
    in_campaign = Q(
        battle_sides__battle__campaign=campaign,
        battle_sides__battle__status=Battle.Status.CONCLUDED,
    )
    won = in_campaign & (Q(battle_sides__is_winner=True) | Q(battle_sides__battle__winner=F("pk")))
    decided = in_campaign & (
        Q(battle_sides__battle__winner__isnull=False)
        | Q(battle_sides__battle__sides__is_winner=True)
    )
    factions = campaign.factions.annotate(
        fought=Count("battle_sides", filter=in_campaign, distinct=True),
        won=Count("battle_sides", filter=won, distinct=True),
        decided=Count("battle_sides", filter=decided, distinct=True),
        ships_lost=Count(
            "battle_sides__participants",
            filter=in_campaign
            & Q(
                battle_sides__participants__fate__in=LOST_FATES,
                battle_sides__participants__ship__isnull=False,
            ),
            distinct=True,
        ),
    )
    rows = list(factions)
    for faction in rows:
        # A battle someone won that this faction did not win is a loss; a draw is neither.
        faction.lost = faction.decided - faction.won
    rows.sort(key=lambda f: (-f.won, f.lost, f.name))
    return rows


def home(request: HttpRequest) -> HttpResponse:
    """The index: campaigns, factions and the most recent battles."""
    return render(
        request,
        "campaign/home.html",
        {
            "campaigns": Campaign.objects.annotate(faction_count=Count("factions")),
            "factions": Faction.objects.all(),
            "battles": recent_battles(request.user)[:RECENT_BATTLES],
        },
    )


def campaign_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A campaign: its factions, its battles and simple standings."""
    campaign = get_object_or_404(Campaign, slug=slug)
    return render(
        request,
        "campaign/detail.html",
        {
            "campaign": campaign,
            "description_html": render_markdown(campaign.description),
            "battles": recent_battles(request.user, campaign),
            "standings": campaign_standings(campaign),
        },
    )
