"""Battle pages: thin views that look up, scope through the ``access`` helpers and render.

The after-action report is the fragment ``reports/battle.html`` rendered from
``battles.reports.context.report_context(battle, user=request.user)``, the same context as the PDF
and the baked site (which are built as the public, ``user=None``).
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString

from battles.access import actionable_battles, visible_battles
from battles.briefing import battle_briefing
from battles.models import Battle, BattleAction, BattleSide, Event, Participant, Report
from battles.models.turn_orders import TurnPlay
from battles.play.context import turn_links
from battles.reports.context import ReportRows, report_context, share_classes
from battles.reports.files import report_is_current
from battles.reports.page_cache import LogStats, cached_fragment, fragment_key, log_stats
from battles.visibility import Reader, may_read_draft, reader_for, unit_row
from campaign.core.csp import nonce_styles
from campaign.league.roles import can_edit_reports, is_organiser
from factions.models import Ship
from factions.versioning import read_version


def report_fragment(request: HttpRequest, battle: Battle) -> SafeString:
    """The report of ``battle`` as an HTML fragment (``reports/battle.html``), as seen by
    ``request.user``: units and fleet names of fleets the user may not see
    (``factions.access.visible_fleets``) are left out by ``report_context``. Built every
    time; the battle page reads it through :func:`_cached_report`.
    """
    context = report_context(battle, user=request.user)
    return render_to_string("reports/battle.html", context, request=request)


def _cached_report(
    request: HttpRequest, battle: Battle, sides: list[BattleSide], fleets_version: str | None
) -> tuple[SafeString, Reader, LogStats]:
    """The report fragment of ``battle`` for ``request.user``, from the cache when built
    already for this version of the battle, language and visibility class
    (``battles.reports.page_cache``), with the reader and the log's counts it was keyed
    on. ``sides``: the battle's sides with faction, fleet and participants loaded as
    ``report_rows`` loads them; ``fleets_version``: read before them."""
    participants = [p for side in sides for p in side.participants.all()]
    fleet_ids = {s.fleet_id for s in sides} | {unit_row(p).fleet_id for p in participants}
    reader = reader_for(request.user, among=fleet_ids)
    stats = log_stats(battle)
    key = fragment_key(
        battle,
        sides,
        stats,
        fleets_version,
        language=translation.get_language(),
        reader=reader,
        fleet_ids=fleet_ids,
        show_texts=may_read_draft(battle, reader),
    )

    def build() -> SafeString:
        events = list(Event.objects.filter(battle_id=battle.pk).order_by("sequence"))
        share_classes([p.ship for p in participants])
        rows = ReportRows(sides, reader, events)
        context = report_context(battle, user=request.user, preloaded=rows)
        return render_to_string("reports/battle.html", context)

    return cached_fragment(key, build), reader, stats


def _briefing_page(request: HttpRequest, battle: Battle) -> HttpResponse:
    """A draft battle as a player of one of its sides sees it: their side's briefing
    (``battles.briefing``) and the way to play it (the turn page, else the record form)."""
    briefing = battle_briefing(battle, request.user)
    if briefing is None:  # actionable_battles lets no one else reach a draft
        raise Http404
    return render(
        request,
        "battles/briefing_page.html",
        {
            "battle": battle,
            "campaign": battle.campaign,
            "briefing": briefing,
            "turn_play": TurnPlay.objects.filter(battle_id=battle.pk, ended=False).exists(),
        },
    )


def battle_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A battle: its report (sides, objectives, participants and fates, narrative,
    losses, analyses), the PDF link when rendered, and links to the fleets and ships the
    user may see — never to a page that would be a 404 for them.
    """
    fleets_version = read_version()  # before the rows the cached report is keyed on
    battle = (
        visible_battles(request.user).select_related("campaign", "winner").filter(pk=pk).first()
    )
    if battle is None:
        # A player of one of its sides reads a draft's briefing, not its report (which
        # holds every side's objectives and, on the organisers' page, their timeline).
        battle = get_object_or_404(
            actionable_battles(request.user).select_related("campaign"), pk=pk
        )
        return _briefing_page(request, battle)
    # Sides are fetched on their own so that ``battle`` stays free of prefetch caches for
    # ``report_context``, which builds its own querysets from it; loaded as ``report_rows``
    # loads them, for the report when it is built.
    participants = Participant.objects.select_related(
        "ship__squadron", "light_units__carrier"
    ).order_by("pk")
    sides = list(
        BattleSide.objects.filter(battle=battle)
        .select_related("faction", "fleet")
        .prefetch_related(Prefetch("participants", queryset=participants))
        .order_by("order", "pk")
    )
    report, reader, stats = _cached_report(request, battle, sides, fleets_version)
    # What ``visible_ships`` and ``visible_fleets`` give, from the reader's fleets.
    seen = reader.seen_fleets
    visible_ship_ids = {
        p.ship_id
        for s in sides
        for p in s.participants.all()
        if p.ship_id and p.ship.fleet_id in seen
    }
    for side in sides:
        side.visible_ships = [
            p.ship for p in side.participants.all() if p.ship_id in visible_ship_ids
        ]
    # An unnamed ship is linked by its class's name (loaded when the report was built).
    unnamed = [
        ship
        for side in sides
        for ship in side.visible_ships
        if not ship.name and not Ship.ship_class.is_cached(ship)
    ]
    if unnamed:
        share_classes(unnamed)
    visible_fleet_ids = {s.fleet_id for s in sides if s.fleet_id in seen}
    pdf = battle.reports.filter(format=Report.Format.PDF).first()
    # A reader of another language than the campaign's gets the PDF in theirs
    # (battles/web/media.py renders it when first asked for).
    reader_lang = translation.get_language()
    other_lang = (
        reader_lang
        if reader_lang in dict(settings.LANGUAGES)
        and reader_lang != (battle.campaign.language or settings.LANGUAGE_CODE)
        and battle.status == Battle.Status.CONCLUDED
        else None
    )
    organiser = is_organiser(request.user, battle.campaign)
    actions = (
        list(BattleAction.objects.filter(battle=battle).select_related("user").order_by("at", "pk"))
        if organiser
        else []
    )
    # Links to the turn-by-turn page, the replay viewer and the odds panel.
    play = turn_links(battle, request.user, has_log=bool(stats["setups"]))
    # The damaged ships' SSDs carry a <style>: it gets the page's CSP nonce.
    report_html = nonce_styles(report, request)
    can_edit = battle.status == Battle.Status.CONCLUDED and can_edit_reports(
        request.user, battle.campaign
    )
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
            # Never a link to a PDF of an older version (it is being rendered again).
            "pdf": pdf if report_is_current(pdf, battle) else None,
            "pdf_failed": pdf if pdf and pdf.status == Report.Status.FAILED else None,
            "pdf_lang": other_lang,
            "can_edit_report": can_edit,
            "organiser": organiser,
            "actions": actions,
            **play,
        },
    )
