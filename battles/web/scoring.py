"""The standings page (victory points, tonnage, charts per turn), the organisers' scoring
rules page and the objectives-met form of a battle. Thin: look up, scope, call
``battles.scoring``, render.

Who: the standings page is public, as the campaign page (hidden fleets' tonnage and
strength counted only for who may see them, ``battles.scoring.table``); the rules page
and the objectives form are for the campaign's organisers (anonymous users go to log in,
its other members get 403, anyone else 404).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from battles.access import actionable_battles
from battles.scoring.charts import standings_charts
from battles.scoring.objectives import side_objectives_set
from battles.scoring.rules import RULE_FIELDS, rules_for, rules_in_words, scoring_rules_update
from battles.scoring.table import scoreboard
from campaign.core.refusals import Kind, Refused
from campaign.league.models import Campaign
from campaign.league.roles import is_organiser, require_member, require_organiser


def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """``/campaigns/<slug>/standings/``: the rules in force in words, the table per
    faction (VP by reason, mass destroyed and lost) and per player, the charts per turn."""
    campaign = get_object_or_404(Campaign, slug=slug)
    board = scoreboard(campaign, user=request.user)
    return render(
        request,
        "battles/standings.html",
        {
            "campaign": campaign,
            "board": board,
            "rules_words": rules_in_words(board.rules),
            "charts": standings_charts(board),
            "organiser": is_organiser(request.user, campaign),
        },
    )


@login_required
def scoring_rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    """``/campaigns/<slug>/scoring/``: the organisers edit the scoring rules; saving
    re-prices every award. A bad value is shown beside its field (422), nothing saved."""
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(request.user, campaign)
    rules = rules_for(campaign)
    errors: dict[str, str] = {}
    values = {name: getattr(rules, name) for name in RULE_FIELDS}
    status = 200
    if request.method == "POST":
        values = {name: request.POST.get(name, "") for name in RULE_FIELDS}
        try:
            scoring_rules_update(campaign=campaign, user=request.user, values=values)
        except Refused as exc:
            if exc.kind != Kind.INVALID:
                raise
            errors, status = dict(exc.errors), 422
        else:
            messages.success(request, _("Scoring rules saved; every award was recomputed."))
            return redirect("campaign-standings", slug=campaign.slug)
    fields = [
        {"name": name, "label": rules._meta.get_field(name).verbose_name, "value": values[name],
         "error": errors.get(name, "")}
        for name in RULE_FIELDS
    ]  # fmt: skip
    return render(
        request,
        "battles/scoring_rules.html",
        {"campaign": campaign, "fields": fields, "errors": errors},
        status=status,
    )


@require_POST
@login_required
def battle_objectives(request: HttpRequest, pk: int) -> HttpResponse:
    """Set how many objectives each side met (organisers; fields ``objectives-<faction
    slug>``); back to ``next`` (the record page) or the battle page."""
    battle = get_object_or_404(actionable_battles(request.user).select_related("campaign"), pk=pk)
    require_member(request.user, battle.campaign)
    prefix = "objectives-"
    values = {k.removeprefix(prefix): v for k, v in request.POST.items() if k.startswith(prefix)}
    try:
        side_objectives_set(battle=battle, user=request.user, values=values)
    except Refused as exc:
        if exc.kind != Kind.INVALID:
            raise
        messages.error(request, "; ".join(f"{f}: {m}" for f, m in exc.errors))
    else:
        messages.success(request, _("Objectives met saved."))
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect(battle)
