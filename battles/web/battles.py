"""Battle pages: thin views that look up, scope through the ``access`` helpers and render.

The after-action report is the fragment ``reports/battle.html`` rendered from
``battles.reports.context.report_context(battle, user=request.user)``, the same context as the PDF
and the baked site (which are built as the public, ``user=None``); the battle page reads it,
with its list of the fleets and ships fighting, from ``battles.reports.page_cache``: built once
per version of the battle, language and visibility class.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from battles.access import actionable_battles, visible_battles
from battles.briefing import battle_briefing
from battles.models import Battle, Report
from battles.models.turn_orders import TurnPlay
from battles.play.context import turn_links
from battles.reports.context import report_context, report_rows
from battles.reports.files import report_is_current
from battles.reports.page_cache import (
    BattleStamp,
    battle_stamp,
    cached_fragments,
    fragments_key,
    stamp_reader,
)
from battles.visibility import Reader
from battles.web.panels import odds_html, organiser_html
from campaign.core.csp import nonce_styles
from campaign.league.roles import can_edit_reports, is_organiser
from factions.versioning import read_version


def _page_fragments(
    request: HttpRequest, battle: Battle, fleets_version: str | None, *, editor: bool
) -> tuple[dict[str, str], BattleStamp, Reader, str | None]:
    """The report of ``battle`` for ``request.user`` (``"report"``) and the list of the
    fleets and ships of the battle they may open (``"ships"``), from the cache when built
    already for this version of the battle, language and visibility class
    (``battles.reports.page_cache``), with the stamp, reader and key they were read with.
    ``fleets_version``: read before ``battle``; ``editor``: ``can_edit_reports``."""
    stamp = battle_stamp(battle)
    reader = stamp_reader(request.user, stamp)
    key = fragments_key(
        battle,
        stamp,
        fleets_version,
        language=translation.get_language(),
        reader=reader,
        # As ``battles.visibility.may_read_draft``, with ``editor`` read once.
        show_texts=battle.report_state == Battle.ReportState.PUBLISHED or editor,
    )

    def build() -> dict[str, str]:
        rows = report_rows([battle], user=request.user)[battle.pk]
        context = report_context(battle, user=request.user, preloaded=rows)
        # What ``visible_ships`` and ``visible_fleets`` give, from the reader's fleets.
        seen = rows.reader.seen_fleets
        for side in rows.sides:
            side.visible_ships = [
                p.ship for p in side.participants.all() if p.ship_id and p.ship.fleet_id in seen
            ]
        ships = {
            "sides": rows.sides,
            "any_visible": any(s.visible_ships or s.fleet_id in seen for s in rows.sides),
            "visible_fleet_ids": {s.fleet_id for s in rows.sides if s.fleet_id in seen},
        }
        return {
            "report": render_to_string("reports/battle.html", context),
            "ships": render_to_string("battles/_battle_ships.html", ships),
        }

    return cached_fragments(key, build), stamp, reader, key


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
    # No ORDER BY (the battles' default order joins the campaigns): one row at most.
    found = visible_battles(request.user).select_related("campaign", "winner").filter(pk=pk)
    battle = next(iter(found.order_by()), None)
    if battle is None:
        # A player of one of its sides reads a draft's briefing, not its report (which
        # holds every side's objectives and, on the organisers' page, their timeline).
        battle = get_object_or_404(
            actionable_battles(request.user).select_related("campaign"), pk=pk
        )
        return _briefing_page(request, battle)
    # Who may edit the campaign's reports reads an unpublished report's texts too.
    editor = can_edit_reports(request.user, battle.campaign)
    fragments, stamp, reader, key = _page_fragments(request, battle, fleets_version, editor=editor)
    pdf = battle.reports.filter(format=Report.Format.PDF).order_by("pk").first()
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
    # Links to the turn-by-turn page, the replay viewer and the odds panel.
    play = turn_links(
        battle,
        request.user,
        has_log=stamp.has_setup,
        organiser=organiser,
        reader=reader,
        with_odds=False,
    )
    # The panels, cached beside the report (battles.web.panels).
    play["odds_html"] = mark_safe(odds_html(request, battle, organiser, reader, key))  # noqa: S308
    organiser_panel = (
        organiser_html(request, battle, key, turn_play_running=play["turn_play_running"])
        if organiser
        else ""
    )
    # The damaged ships' SSDs carry a <style>: it gets the page's CSP nonce.
    report_html = nonce_styles(mark_safe(fragments["report"]), request)  # noqa: S308
    can_edit = battle.status == Battle.Status.CONCLUDED and editor
    return render(
        request,
        "battles/battle_detail.html",
        {
            "battle": battle,
            "campaign": battle.campaign,
            # Both fragments were rendered by our templates (autoescaped).
            "ships_html": mark_safe(fragments["ships"]),  # noqa: S308
            "report_html": report_html,
            # Never a link to a PDF of an older version (it is being rendered again).
            "pdf": pdf if report_is_current(pdf, battle) else None,
            "pdf_failed": pdf if pdf and pdf.status == Report.Status.FAILED else None,
            "pdf_lang": other_lang,
            "can_edit_report": can_edit,
            "organiser": organiser,
            # Rendered by our template (autoescaped), with this request's CSRF token.
            "organiser_html": mark_safe(organiser_panel),  # noqa: S308
            **play,
        },
    )
