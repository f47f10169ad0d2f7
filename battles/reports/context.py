"""After-action reports: one context, three renderings.

- :func:`render_markdown` turns people's Markdown (narrative, analyses, objectives) into
  sanitised HTML: Python-Markdown, then nh3 with an allow-list. Scripts, ``javascript:``
  links and event handlers never survive; images survive only when they point at one of
  the project's own static files.
- :func:`report_context` is the one context function; the web fragment
  ``reports/battle.html``, the PDF page ``reports/battle-print.html`` and the static-site
  page ``site/battle.html`` are all rendered from it.
- :func:`render_pdf` runs WeasyPrint (``battles.reports.pdf``, imported only when a PDF is
  rendered: importing WeasyPrint costs ~2 s) with ``battles.reports.pdf.StaticOnlyURLFetcher``,
  which serves the project's static files under the fixed ``admiralty-static:`` scheme and
  refuses every other URL (``file:``, ``http(s):``, ``data:``…) and every redirect.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from battles.log.battle_map import battle_map_svg
from battles.log.lines import event_line
from battles.log.names import hidden_unit_names, log_names
from battles.models import BattleSide, Event, Participant
from battles.play.board import Viewer, board_view
from battles.reports.narrative import narrative_for, reader_language, written_in_note
from battles.reports.turn_log import PDF_VOLLEYS_PER_TURN, trim_for_print, turn_log
from battles.services.other_games import system_unit_rows
from battles.systems.games import DEFAULT_SYSTEM
from battles.visibility import (
    Reader,
    fleet_hidden,
    hidden_participants,
    hidden_refs,
    may_read_draft,
    reader_for,
    unit_row,
)
from campaign.core.markdown import (
    PDF_ASSET_PREFIX,
    render_markdown,
    static_file,
)
from campaign.core.messages import is_message, message
from campaign.core.stored_text import end_reason_label, stored_text
from factions.models import ShipClass
from factions.ship_names import names_told_apart
from factions.ssd import draw as ssd
from factions.type_words import light_unit_label

if TYPE_CHECKING:
    from battles.models import Battle

logger = logging.getLogger(__name__)


def _participant_row(participant: Any, fate_labels: dict[str, str]) -> dict[str, Any]:
    """What the report shows of ``participant``; ``fate_labels``: :func:`_fate_labels`."""
    ship, group = participant.ship, participant.light_units
    if ship is not None:
        # An unnamed ship is known by its class: then show the type word beside it.
        name = ship.name or ship.ship_class.name
        unit_class = str(ship.ship_class) if ship.name else ship.ship_class.type_label
    else:
        name = group.name
        unit_class = light_unit_label(group.kind, group.get_kind_display(), group.unit_type)
    return {
        "participant": participant,
        "ship": ship,
        "light_units": group,
        "name": name,
        "unit_class": unit_class,
        "fate": participant.fate,
        "fate_label": fate_labels.get(participant.fate, participant.fate),
        "hull_lost": participant.hull_lost,
        "armour_lost": participant.armour_lost,
        "crew_lost": participant.crew_lost,
        "systems_lost": list(participant.systems_lost or []),
        "craft_lost": participant.craft_lost,
        "notes": participant.notes,
        "points": ship.ship_class.points if ship is not None else None,
        "mass": ship.ship_class.mass if ship is not None else None,
    }


def _fate_labels() -> dict[str, str]:
    """``{fate: label}`` in the active language, read once per report: Django's
    ``get_fate_display`` translates every choice to look one up (the participants' rows
    of a site build took 0.54 ms a battle with it, 0.17 ms without: 1 000 battles)."""

    return {value: str(label) for value, label in Participant.Fate.choices}


def _losses(rows: list[dict[str, Any]]) -> dict[str, int]:
    def count(fate: str) -> int:
        return sum(1 for r in rows if r["fate"] == fate)

    return {
        "units": len(rows),
        "destroyed": count("destroyed"),
        "captured": count("captured"),
        "damaged": count("damaged"),
        "fled": count("fled"),
        "hull_lost": sum(r["hull_lost"] for r in rows),
        "armour_lost": sum(r["armour_lost"] for r in rows),
        "crew_lost": sum(r["crew_lost"] for r in rows),
        "craft_lost": sum(r["craft_lost"] for r in rows),
    }


def _damage_diagrams(ships: list[Any], draw: Any = None) -> list[dict[str, Any]]:
    """SSDs of the damaged ships (``draw``, default ``factions.ssd.draw.ship_svg``).

    A drawing failure is logged and skipped: a report must render without diagrams.
    """
    draw = draw or ssd.ship_svg
    diagrams = []
    for ship in ships:
        if ship is None:
            continue
        try:
            svg = draw(ship)
        except Exception:  # the diagram is decoration; never lose the report for it
            logger.exception("SSD of ship %s could not be drawn", ship.pk)
            continue
        # ship_svg builds the SVG with ElementTree, which escapes every text.
        diagrams.append({"ship": ship, "svg": mark_safe(svg)})  # noqa: S308
    return diagrams


#: ``Event.data`` keys through which an engine entry names a unit (rules/turn.py).
_UNIT_KEYS = ("ship", "target", "unit", "origin", "attached_to")


def _names_hidden(event: Any, refs: set[str], names: re.Pattern[str] | None) -> bool:
    """True when ``event`` names a unit the viewer may not see: an engine id in
    :data:`_UNIT_KEYS` (``ship-12``, or a launched unit ``ship-12.hangar-1``) or a
    hidden ship's or group's name in its stored summary or in the line the report prints
    (``event.line``, :mod:`battles.log.lines`)."""
    data = event.data if isinstance(event.data, dict) else {}
    for key in _UNIT_KEYS:
        values = data.get(key)
        for value in values if isinstance(values, list) else [values]:
            if isinstance(value, str) and (value in refs or value.split(".")[0] in refs):
                return True
    if names is None:
        return False
    return bool(names.search(event.summary or "") or names.search(getattr(event, "line", "") or ""))


def _public_events(events: list[Any], hidden: list[Any], refs: frozenset[str]) -> list[Any]:
    """``events`` without the entries that name one of the ``hidden`` participants (their
    engine ids ``refs``, ``battles.visibility.hidden_refs``).

    A die (``kind == "roll"``) is logged just before the entry it decides
    (battles/services/engine_log.py), so it goes with that entry.
    """
    if not hidden:
        return events
    words = {p.ship.name for p in hidden if p.ship_id and p.ship.name}
    words |= hidden_unit_names(events, refs)  # the engine's names, e.g. "Sa'ar 1"
    words |= {p.light_units.name for p in hidden if p.light_units_id and p.light_units.name}
    names = (
        re.compile(
            "|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in sorted(words, key=len, reverse=True))
        )
        if words
        else None
    )
    kept: list[Any] = []
    drop_rolls = False
    for event in reversed(events):
        if event.kind == "roll":
            if not drop_rolls and not _names_hidden(event, refs, names):
                kept.append(event)
            continue
        drop_rolls = _names_hidden(event, refs, names)
        if not drop_rolls:
            kept.append(event)
    return kept[::-1]


@dataclass
class ReportRows:
    """What :func:`report_context` reads from the database for one battle: ``sides``
    (``BattleSide`` with ``faction``, ``fleet``, ``participants`` and, for other game
    systems, ``system_units`` loaded), ``reader`` (the viewer, ``battles.visibility
    .reader_for`` asked about the fleets among them) and ``events`` (the battle's
    ``Event`` rows in sequence order)."""

    sides: list[Any]
    reader: Reader
    events: list[Any]


def share_classes(ships: list[Any]) -> None:
    """Give ``ships`` (None skipped) their ``ship_class`` (with its ``faction``), one
    instance per class, in one query: joined to every participant, each class (its
    ``design`` JSON decoded) was built once per unit of every battle (``report_rows`` of a
    site build: 0.88 → 0.58 ms a battle at 1 000 battles, designs empty)."""

    ships = [ship for ship in ships if ship is not None]
    classes = ShipClass.objects.select_related("faction").in_bulk(
        {ship.ship_class_id for ship in ships}
    )
    for ship in ships:
        ship.ship_class = classes[ship.ship_class_id]


def report_rows(battles: list[Battle], *, user: Any = None) -> dict[int, ReportRows]:
    """:class:`ReportRows` of every battle of ``battles`` (``{battle id: rows}``), in
    five queries whatever their number (a site build loads its battles in chunks)."""

    ids = [b.pk for b in battles]
    participants = Participant.objects.select_related(
        "ship__squadron", "light_units__carrier"
    ).order_by("pk")
    # A fresh queryset, not ``battle.sides``: the caller may have prefetched that already.
    sides_qs = (
        BattleSide.objects.filter(battle_id__in=ids)
        .select_related("faction", "fleet")
        .prefetch_related(Prefetch("participants", queryset=participants))
        .order_by("battle_id", "order", "pk")
    )
    if any(b.game_system != DEFAULT_SYSTEM for b in battles):  # units of seeds 001–004
        sides_qs = sides_qs.prefetch_related("system_units")
    sides: dict[int, list[Any]] = {pk: [] for pk in ids}
    for side in sides_qs:
        sides[side.battle_id].append(side)
    share_classes([p.ship for g in sides.values() for s in g for p in s.participants.all()])
    every = [side for group in sides.values() for side in group]
    fleet_ids = {s.fleet_id for s in every}
    fleet_ids |= {unit_row(p).fleet_id for s in every for p in s.participants.all()}
    reader = reader_for(user, among=fleet_ids)
    events: dict[int, list[Any]] = {pk: [] for pk in ids}
    for event in Event.objects.filter(battle_id__in=ids).order_by("battle_id", "sequence"):
        events[event.battle_id].append(event)
    return {pk: ReportRows(sides[pk], reader, events[pk]) for pk in ids}


def _outcome_line(result: Any, won: bool) -> str:
    """The engine's ``result`` event as the report's outcome line. With a winner only why
    and when ("(withdrawal, after 2 turns)"): the line follows "Victory: <side>", and the
    log's "<side> wins (withdrawal) after 2 turns" repeated the name."""
    data = result.data if isinstance(result.data, dict) else {}
    reason = end_reason_label(data.get("reason"))
    if not won or reason is None or not isinstance(result.game_turn, int):
        return result.line
    n = result.game_turn
    return ngettext("(%(reason)s, after %(n)d turn)", "(%(reason)s, after %(n)d turns)", n) % {
        "reason": reason,
        "n": n,
    }


def _stored_outcome(battle: Battle, won: bool) -> str:
    """The stored outcome in the reader's language; with a winner, an engine outcome
    headed "<side> victory: <why>" keeps only the why: the banner says "Victory: <side>"
    just before it."""
    stored = battle.outcome_message
    params = (stored.get("params") or {}) if is_message(stored) else {}
    head = params.get("head")
    if won and is_message(head) and head["key"] == "outcome.victory":
        reason = message("outcome.victory_reason", reason=head["params"]["reason"])
        stored = {**stored, "params": {**params, "head": reason}}
    return stored_text(battle.outcome, stored)


def report_context(
    battle: Battle,
    *,
    user: Any = None,
    asset_prefix: str | None = None,
    texts: dict[str, Any] | None = None,
    preloaded: ReportRows | None = None,
    draw_ship: Any = None,
) -> dict[str, Any]:
    """Everything a report shows about ``battle`` to ``user``, for every rendering.

    ``user`` is the viewer (``None``: the anonymous public, as for the PDF and the
    published site). Units of fleets the viewer may not see (``factions.access
    .visible_fleets``; a light-unit group counts with its fleet, else its carrier's) are
    neither named nor drawn: they appear only as a count per side (``unidentified``), are
    left out of the losses (which would reveal their damage), and log entries that name
    them are dropped (see :func:`_public_events`). A fleet name is shown only when the
    viewer may see that fleet.

    Returns a dict with ``battle``, ``campaign``, ``winner`` (a Faction or None),
    ``winner_name``, ``scenario_html``, ``narrative_html``, ``analysis_html`` (sanitised,
    see :func:`render_markdown`; the drafted narrative in the active language, a person's
    as written, :mod:`battles.reports.narrative`), ``narrative_note`` ("Written in French
    by the chronicler." when that is not the reader's language, else ""), ``sides``
    (list of dicts: ``side``, ``faction``, ``fleet``, ``is_winner``,
    ``primary_objective_html``, ``secondary_objectives_html``,
    ``analysis_html``, ``participants`` — dicts with ``name``, ``unit_class``, ``fate``,
    ``fate_label``, hull/armour boxes, crew factors, systems and craft lost —,
    ``unidentified`` (units not shown) and ``losses``), ``losses`` (list of ``(faction
    name, losses dict)``, shown units only), ``diagrams`` (SSDs of damaged ships shown:
    ``{"ship", "svg"}``), ``battle_map`` (the map, :func:`_battle_map`, or None),
    ``turns`` (the ``Event`` log grouped by game turn, see
    :func:`turn_log`; empty when nothing was logged), ``full_log`` (True: show every log
    entry and die, collapsed; the PDF sets it False) and ``asset_prefix``. Costs a fixed
    number of queries.

    People's texts (``narrative``, ``analysis``, each side's ``analysis``) of a report
    that is not published (``battle.report_state``) are shown only to those who may edit
    it (``campaign.league.roles.can_edit_reports``); ``report_is_draft`` tells the template.
    ``texts`` previews unsaved texts (``{"narrative", "analysis", "sides": {side id:
    analysis}}``, any key may be missing) as the page would show them once published.
    """

    if asset_prefix is None:
        asset_prefix = "/" + settings.STATIC_URL.strip("/") + "/"

    def md(text: str, section: str) -> SafeString:
        return render_markdown(text, asset_prefix=asset_prefix, id_prefix=f"{section}-")

    if preloaded is None:
        preloaded = report_rows([battle], user=user)[battle.pk]
    sides_qs, reader, events = preloaded.sides, preloaded.reader, preloaded.events
    is_draft = battle.report_state != battle.ReportState.PUBLISHED
    previewing = texts is not None
    show_texts = previewing or may_read_draft(battle, reader)
    texts = texts or {}
    side_texts = texts.get("sides") or {}

    def person_text(value: str) -> str:
        return value if show_texts else ""

    other_system = battle.game_system != DEFAULT_SYSTEM  # units of seeds 001–004
    sides = []
    hidden: list[Any] = []
    winner = battle.winner
    fate_labels = _fate_labels()
    for side in sides_qs:
        side_hidden = hidden_participants(side.participants.all(), reader)
        unseen = {p.pk for p in side_hidden}
        shown = [p for p in side.participants.all() if p.pk not in unseen]
        hidden += side_hidden  # the log and map hide every side's unseen units
        # Units of the other game systems (public roster units) follow the ships.
        rows = [_participant_row(p, fate_labels) for p in shown]
        if other_system:
            rows += system_unit_rows(side)
        sides.append(
            {
                "side": side,
                "faction": side.faction,
                "fleet": None if fleet_hidden(reader, side.fleet_id) else side.fleet,
                "is_winner": battle.winner_id is not None and side.faction_id == battle.winner_id,
                "primary_objective_html": md(side.primary_objective, f"side-{side.pk}-primary"),
                "secondary_objectives_html": md(
                    side.secondary_objectives, f"side-{side.pk}-secondary"
                ),
                "analysis_html": md(
                    person_text(side_texts.get(side.pk, side.analysis)), f"side-{side.pk}"
                ),
                "participants": rows,
                "unidentified": len(side_hidden),  # this side's own, not the battle's
                "losses": _losses(rows),
                # other systems' units carry no Full Thrust points
                "points": sum(r.get("points") or 0 for r in rows),
            }
        )
    # Same-named ships are told apart as the set-up tells them (number, squadron).
    shown_ships = [r["ship"] for side in sides for r in side["participants"] if r.get("ship")]
    told_apart = names_told_apart(shown_ships)
    for row in (r for side in sides for r in side["participants"] if r.get("ship")):
        row["name"] = told_apart.get(row["ship"].pk, row["name"])
    diagrams = _damage_diagrams(
        [r["ship"] for side in sides for r in side["participants"] if r["fate"] == "damaged"],
        draw_ship,
    )
    # Both engine modes log from the engine (a set-up row naming the ships).
    engine = battle.mode in (battle.Mode.RESOLVED, battle.Mode.TURNS)
    side_names = {s["faction"].slug: s["faction"].name for s in sides}
    # Each line in the reader's language (engine logs only: people's lines stay theirs),
    # never naming a hidden unit; checked again on the printed line by _public_events.
    refs = hidden_refs(hidden, reader)
    names = log_names(events, side_names, refs) if engine else None
    for event in events:
        event.line = event_line(event, names) if names else (event.summary or event.kind)
    # The engine's outcome in the reader's language (its ``result`` entry), else as stored.
    # A battle played turn by turn keeps its stored outcome (it may say the organiser ended it).
    resolved = battle.mode == battle.Mode.RESOLVED
    result = next((e for e in reversed(events) if e.kind == "result"), None) if resolved else None
    outcome_text = (
        _outcome_line(result, winner is not None)
        if result is not None and names
        else _stored_outcome(battle, winner is not None)
    )
    turns = turn_log(
        _public_events(events, hidden, refs), engine=engine, side_names=side_names, names=names
    )
    battle_map = _battle_map(battle, events, refs, side_names)
    # The draft in the reader's language; a person's text as written, and said so.
    narrative = narrative_for(battle, reader_language(), texts.get("narrative"))
    return {
        "battle": battle,
        "campaign": battle.campaign,
        "winner": winner,
        "winner_name": winner.name if winner else "",
        "outcome_text": outcome_text,
        "scenario_html": md(battle.scenario, "scenario"),
        "narrative_html": md(person_text(narrative.text), "narrative"),
        "narrative_note": written_in_note(narrative) if show_texts and narrative.text else "",
        "analysis_html": md(person_text(texts.get("analysis", battle.analysis)), "analysis"),
        "sides": sides,
        "losses": [(s["faction"].name, s["losses"]) for s in sides],
        "has_analysis": show_texts
        and bool(
            texts.get("analysis", battle.analysis).strip()
            or any(side_texts.get(s.pk, s.analysis).strip() for s in sides_qs)
        ),
        "report_is_draft": is_draft and show_texts and not previewing,
        "turns": turns,
        "full_log": True,
        "diagrams": diagrams,
        "battle_map": battle_map,
        "asset_prefix": asset_prefix,
    }


def _battle_map(
    battle: Battle, events: list[Any], hidden: frozenset[str], side_names: dict[str, str]
) -> SafeString | None:
    """The battle's map (``battles.log.battle_map``) from its log as this report's viewer
    sees it: the units whose engine ids are ``hidden`` are neither drawn nor named. ``None``
    when the log holds no deployment (a battle recorded from the table)."""
    if not any(e.kind == "deploy" for e in events):
        return None

    viewer = Viewer("public", hidden=hidden)
    board = board_view(events, viewer, side_names=side_names, with_log=False, with_layout=False)
    title = gettext("Map of %(battle)s") % {"battle": battle.name}
    svg = battle_map_svg(board, title=title)
    # ElementTree escapes every text of the drawing.
    return mark_safe(svg) if svg else None  # noqa: S308


# --- renderings ----------------------------------------------------------------------


def render_html_document(battle: Battle) -> str:
    """The report as one self-contained HTML document (CSS inlined), for ``media/``.

    A public document: rendered as the anonymous public (``user=None``)."""
    context = report_context(battle, user=None)
    css = static_file("css/report.css")
    context["inline_css"] = mark_safe(css.read_text(encoding="utf-8") if css else "")  # noqa: S308
    return render_to_string("reports/battle-print.html", context)


def render_pdf(battle: Battle) -> bytes:
    """The report as PDF bytes (WeasyPrint ≥ 68 with
    :class:`battles.reports.pdf.StaticOnlyURLFetcher`).

    A public document: rendered as the anonymous public (``user=None``)."""
    return pdf_from_html(pdf_page_html(battle))


def pdf_from_html(html: str) -> bytes:
    """PDF bytes of a page from :func:`pdf_page_html`, fetching only static files
    (:mod:`battles.reports.pdf`, which imports WeasyPrint: only where a PDF is rendered)."""
    # WeasyPrint loads only where a PDF is made: importing it costs about 2 s of start-up
    # (battles/reports/pdf.py), which no page, command or test that draws no PDF pays.
    from battles.reports.pdf import pdf_from_html as write_pdf

    return write_pdf(html)


def print_toc(context: dict[str, Any]) -> list[dict[str, str]]:
    """The PDF's table of contents (``[{"id", "title"}]``, sections present, in order), or
    ``[]`` for a short report: one with under three turns logged, a narrative under
    ~6 000 characters and at most one damage diagram fits on a few pages."""
    long = (
        len(context["turns"]) >= 3
        or len(context["narrative_html"]) > 6000
        or len(context["diagrams"]) > 1
    )
    if not long:
        return []
    sections = [
        ("sec-situation", gettext("Situation"), context["scenario_html"]),
        ("sec-forces", gettext("Forces and objectives"), True),
        ("sec-narrative", gettext("Narrative"), context["narrative_html"]),
        ("sec-map", gettext("Map"), True),
        ("sec-log", gettext("Turn log"), context["turns"]),
        ("sec-losses", gettext("Losses"), context["losses"]),
        ("sec-analysis", gettext("Analysis"), context["has_analysis"]),
        ("sec-roster", gettext("Annex: fleet roster"), True),
        ("sec-diagrams", gettext("Annex: damage diagrams"), context["diagrams"]),
    ]
    return [{"id": key, "title": title} for key, title, present in sections if present]


def pdf_page_html(battle: Battle) -> str:
    """The HTML page WeasyPrint turns into the PDF (as the public, ``user=None``); its
    assets are ``admiralty-static:`` URLs. ``battles.reports.files.report_render`` hashes it
    to tell whether the PDF on disk is current."""
    context = report_context(battle, user=None, asset_prefix=PDF_ASSET_PREFIX)
    # Highlights and a summary per turn only: every die of a long battle would run to
    # hundreds of pages. The full log is in the HTML report and ``/api``.
    context["full_log"] = False
    context["print"] = True
    trim_for_print(context["turns"], volleys=PDF_VOLLEYS_PER_TURN)
    context["toc"] = print_toc(context)
    return render_to_string("reports/battle-print.html", context)
