"""Battle pages: thin views that look up, scope through ``campaign.access`` and render.

The after-action report fragment comes from the reports module (``battles.reports``:
``report_context(battle)`` and the ``reports/battle.html`` template, written by another
helper); until it is there the page renders its own short account of the battle.
"""

from __future__ import annotations

import logging

from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template import TemplateDoesNotExist
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from campaign import access
from campaign.markdown import render_markdown

from .models import Battle, BattleSide, Participant, Report

logger = logging.getLogger(__name__)


def report_fragment(
    request: HttpRequest, battle: Battle, *, visible_fleet_ids: set[int]
) -> SafeString | None:
    """The report of ``battle`` rendered by the reports module, or None while it is absent.

    The name of a side's fleet is left out when the user may not see that fleet
    (``campaign.access.visible_fleets``): a hidden fleet's ships may be named as
    participants, but the page does not reveal the fleet they belong to.
    """
    try:
        from battles.reports import report_context
    except ImportError:
        return None
    context = report_context(battle)
    for side in context.get("sides", []):
        fleet = side.get("fleet")
        if fleet is not None and fleet.pk not in visible_fleet_ids:
            side["fleet"] = None
    try:
        return render_to_string("reports/battle.html", context, request=request)
    except TemplateDoesNotExist:
        logger.warning("reports/battle.html is missing; battle %s shown without report", battle)
        return None


def battle_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A battle: sides with objectives, participants and fates, the report, the PDF link.

    Participants whose ship sits in a fleet the user may not see are listed by class only,
    without a link to a page that would be a 404 for them.
    """
    participants = Participant.objects.select_related("ship__ship_class", "light_units").order_by(
        "pk"
    )
    battle = get_object_or_404(Battle.objects.select_related("campaign", "winner"), pk=pk)
    # Sides are fetched on their own so that ``battle`` stays free of prefetch caches for
    # ``report_context``, which builds its own querysets from it.
    sides = list(
        BattleSide.objects.filter(battle=battle)
        .select_related("faction", "fleet")
        .prefetch_related(Prefetch("participants", queryset=participants))
    )
    for side in sides:
        side.analysis_html = render_markdown(side.analysis)
    ship_ids = [p.ship_id for side in sides for p in side.participants.all() if p.ship_id]
    visible_ship_ids = set(
        access.visible_ships(request.user).filter(pk__in=ship_ids).values_list("pk", flat=True)
    )
    for side in sides:
        side.visible_ships = [
            p.ship for p in side.participants.all() if p.ship_id in visible_ship_ids
        ]
    visible_fleet_ids = set(
        access.visible_fleets(request.user)
        .filter(pk__in=[s.fleet_id for s in sides if s.fleet_id])
        .values_list("pk", flat=True)
    )
    pdf = battle.reports.filter(format=Report.Format.PDF).first()
    report_html = report_fragment(request, battle, visible_fleet_ids=visible_fleet_ids)
    return render(
        request,
        "battles/battle_detail.html",
        {
            "battle": battle,
            "campaign": battle.campaign,
            "sides": sides,
            "visible_ship_ids": visible_ship_ids,
            "visible_fleet_ids": visible_fleet_ids,
            "report_html": report_html,
            "narrative_html": None if report_html else render_markdown(battle.narrative),
            "analysis_html": None if report_html else render_markdown(battle.analysis),
            "pdf": pdf if pdf and pdf.file else None,
        },
    )
