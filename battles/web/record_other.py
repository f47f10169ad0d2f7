"""The organiser's page to record a battle of another game system (Starfinder, Star Wars
Starship Battles, Epic): a thin view over ``battles.services.other_games.other_battle_record``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.db.models import QuerySet
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
from battles.web.system_forms import OTHER_SYSTEMS, OtherBattleForm, UnitResultFormSet
from campaign.league.models import Campaign
from campaign.league.roles import require_organiser
from factions.models import Faction


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
    # Choosing the system or the sides (htmx on their change, or the button without
    # script) shows the form again, unchecked, with their roster and critical states.
    choosing = request.method == "GET" or "choose_sides" in request.POST
    values = request.GET if request.method == "GET" else request.POST
    system, sides = _chosen(values, factions)
    roster = (
        SystemUnit.objects.filter(faction__in=sides or factions, game_system=system)
        .select_related("faction")
        .order_by("faction__name", "name")
    )
    kwargs = {"roster": roster, "game_system": system}
    if choosing:
        initial = {k: values.get(k) for k in OtherBattleForm.base_fields if k in values}
        form = OtherBattleForm(initial=initial, factions=factions)
        units = UnitResultFormSet(prefix="units", form_kwargs=kwargs)
    else:
        form = OtherBattleForm(request.POST, factions=factions)
        units = UnitResultFormSet(request.POST, prefix="units", form_kwargs=kwargs)
    if not choosing and form.is_valid() and units.is_valid():
        d = form.cleaned_data
        sides = [
            SideInput(faction=d["side_a"], is_winner=d["winner"] == "a"),
            SideInput(faction=d["side_b"], is_winner=d["winner"] == "b"),
        ]
        try:
            for i, (row, unit_form) in enumerate(zip(units.cleaned_data, units, strict=True)):
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
                            d["game_system"], unit_form.critical_text(), field
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
    status = 400 if not choosing else 200
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


def _chosen(values: Any, factions: QuerySet[Faction]) -> tuple[str, list[int]]:
    """The game system chosen (the form's first when none or an unknown one) and the ids
    of the campaign's factions chosen as sides, from the submitted ``values``."""
    system = values.get("game_system", "")
    if system not in dict(OTHER_SYSTEMS):
        system = OTHER_SYSTEMS[0][0]
    raw = [str(values.get(k, "") or "") for k in ("side_a", "side_b")]
    ids = {int(v) for v in raw if v.isdigit() and len(v) < 19}
    sides = list(factions.filter(pk__in=ids).values_list("pk", flat=True)) if ids else []
    return system, sides
