"""The drafted after-action report: Markdown written from a concluded battle's record.

The Miranda report of seed 000 (the core rule book's battle report section) is the model: the
forces with their points, each side's objectives, a turn-by-turn account, the losses and
the outcome. A chronicler then edits it (``battles.reports.desk``). It is written as the
public sees the battle (``report_context(battle, user=None)``): a hidden fleet's units
are only counted, never named, so the draft can be published as it stands.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, override

from battles.models import Battle
from battles.reports.context import report_context

#: Lines of the account per game turn (the full log stays in the HTML report).
DRAFT_LINES_PER_TURN = 8


def _escape(text: str) -> str:
    """``text`` with the characters Markdown would read as markup escaped."""
    for char in "\\`*_{}[]<>#|":
        text = text.replace(char, "\\" + char)
    return text.replace("\n", " ").strip()


def _forces(sides: list[dict[str, Any]]) -> list[str]:
    lines = ["## " + _("Forces"), ""]
    for side in sides:
        title = side["faction"].name + (f" — {side['fleet'].name}" if side["fleet"] else "")
        points = side["points"]
        heading = f"### {_escape(title)}"
        if points:
            heading += " " + _("(%(points)d points)") % {"points": points}
        lines += [heading, ""]
        for row in side["participants"]:
            unit = f"- **{_escape(row['name'])}**, {_escape(str(row['unit_class']))}"
            if row["points"]:
                unit += " — " + _("%(points)d points") % {"points": row["points"]}
            lines.append(unit)
        if side["unidentified"]:
            n = side["unidentified"]
            lines.append(
                "- " + ngettext("%(n)d unidentified unit", "%(n)d unidentified units", n) % {"n": n}
            )
        lines.append("")
    return lines


def _objectives(battle: Battle, sides: list[dict[str, Any]]) -> list[str]:
    found = [s for s in sides if s["side"].primary_objective or s["side"].secondary_objectives]
    if not found:
        return []
    lines = ["## " + _("Objectives"), ""]
    for side in found:
        lines += [f"### {_escape(side['faction'].name)}", ""]
        if side["side"].primary_objective:
            text = side["side"].primary_objective
            lines += [_("**Primary objective**: %(text)s") % {"text": text}, ""]
        if side["side"].secondary_objectives:
            text = side["side"].secondary_objectives
            lines += [_("**Secondary objectives**: %(text)s") % {"text": text}, ""]
    return lines


def _account(turns: list[dict[str, Any]]) -> list[str]:
    if not turns:
        return []
    lines = ["## " + _("Turn by turn"), ""]
    for turn in turns:
        title = _("Turn %(n)d") % {"n": turn["turn"]} if turn["turn"] else _("Before the battle")
        lines += [f"### {title}", ""]
        if turn["summary"]:
            lines += [_escape(turn["summary"]) + ".", ""]
        for event in turn["events"][:DRAFT_LINES_PER_TURN]:
            lines.append("- " + _escape(getattr(event, "line", "") or event.summary or event.kind))
        left = len(turn["events"]) - DRAFT_LINES_PER_TURN
        if left > 0:
            lines.append("- " + _("… and %(n)d more in the full log.") % {"n": left})
        lines.append("")
    return lines


def _losses(sides: list[dict[str, Any]]) -> list[str]:
    head = [_("Side"), _("Units"), _("Destroyed"), _("Captured"), _("Damaged"), _("Withdrew")]
    lines = ["## " + _("Losses"), "", "| " + " | ".join(head) + " |"]
    lines.append("|---|" + "---:|" * (len(head) - 1))
    for side in sides:
        loss = side["losses"]
        cells = [loss[k] for k in ("units", "destroyed", "captured", "damaged", "fled")]
        lines.append(f"| {_escape(side['faction'].name)} | " + " | ".join(map(str, cells)) + " |")
    return [*lines, ""]


def _outcome(battle: Battle, context: dict[str, Any]) -> list[str]:
    lines = ["## " + _("Outcome"), ""]
    outcome = context["outcome_text"]
    if context["winner_name"]:
        name = _escape(context["winner_name"])
        # The engine's "(withdrawal, after 2 turns)" completes the sentence (reports._outcome_line).
        if outcome.startswith("("):
            name, outcome = f"{name} {_escape(outcome)}", ""
        lines.append(_("Victory: %(name)s.") % {"name": name})
    else:
        lines.append(_("No side won the day."))
    if outcome:
        lines += ["", _escape(outcome)]
    return [*lines, ""]


def report_draft_markdown(battle: Battle, language: str | None = None) -> str:
    """The drafted report of a concluded ``battle`` as Markdown, in ``language`` (a code
    of ``settings.LANGUAGES``; default its campaign's, ``Campaign.language``): forces with
    points, objectives, turn by turn (the summary line and up to
    :data:`DRAFT_LINES_PER_TURN` highlights of the engine or table log), a losses table
    and the outcome. Names come from the record and are escaped so that they stay text.
    Costs the queries of one ``report_context``."""

    with override(language or battle.campaign.language):
        context = report_context(battle, user=None)
        sides = context["sides"]
        lines = [
            *_forces(sides),
            *_objectives(battle, sides),
            *_account(context["turns"]),
            *_losses(sides),
            *_outcome(battle, context),
        ]
    return "\n".join(lines).strip() + "\n"


def report_drafts(battle: Battle) -> dict[str, str]:
    """``battle``'s drafted report in every language of the site (``{code: Markdown}``,
    :func:`report_draft_markdown`): each reader gets the generated sections in their own
    language. Costs the queries of one ``report_context`` per language."""
    return {code: report_draft_markdown(battle, code) for code, _name in settings.LANGUAGES}
