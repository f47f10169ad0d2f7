"""The organiser's page to record a battle of another game system (Starfinder, Star Wars
Starship Battles, Epic): a thin view over ``battles.services.other_games.other_battle_record``."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from battles.models.other_games import OtherBattleError, SystemUnit
from battles.services.other_games import (
    SideInput,
    UnitInput,
    critical_choices,
    other_battle_record,
    parse_criticals,
)
from battles.systems.games import SYSTEMS
from battles.web.system_forms import OtherBattleForm, UnitResultFormSet
from campaign.league.models import Campaign
from campaign.league.roles import require_organiser


@require_http_methods(["GET", "POST"])
def other_battle_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Record a concluded battle of another game system for campaign ``slug``: sides,
    winner, each unit's fate, hull points lost and critical states, outcome, narrative.
    Organisers of the campaign (and staff) only; its other members get 403, anyone else
    404, anonymous users the login page. Bad input re-shows the form with the field named;
    nothing is written then."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(request.user, campaign)
    factions = campaign.factions.order_by("name")
    form = OtherBattleForm(request.POST or None, factions=factions)
    roster = SystemUnit.objects.filter(faction__in=factions).select_related("faction")
    units = UnitResultFormSet(request.POST or None, prefix="units", form_kwargs={"roster": roster})
    if request.method == "POST" and form.is_valid() and units.is_valid():
        d = form.cleaned_data
        sides = [
            SideInput(faction=d["side_a"], is_winner=d["winner"] == "a"),
            SideInput(faction=d["side_b"], is_winner=d["winner"] == "b"),
        ]
        try:
            for i, row in enumerate(units.cleaned_data):
                if not row or not (row.get("name") or row.get("unit")):
                    continue
                field = f"units-{i}-critical_states"
                sides[0 if row["side"] == "a" else 1].units.append(
                    UnitInput(
                        name=row["name"],
                        unit=row["unit"],
                        kind=row["kind"],
                        fate=row["fate"],
                        hull_lost=row["hull_lost"] or 0,
                        critical_states=parse_criticals(
                            d["game_system"], row["critical_states"], field
                        ),
                        notes=row["notes"],
                    )
                )
            battle = other_battle_record(
                campaign=campaign,
                name=d["name"],
                game_system=d["game_system"],
                sides=sides,
                outcome=d["outcome"],
                narrative=d["narrative"],
                location=d["location"],
                date=d["date"],
                campaign_turn=d["campaign_turn"],
                user=request.user,
            )
        except OtherBattleError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(battle)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "systems/record_other.html",
        {
            "campaign": campaign,
            "form": form,
            "units": units,
            "criticals": {s: critical_choices(s) for s in SYSTEMS if s != "ft-incursion"},
        },
        status=status,
    )
