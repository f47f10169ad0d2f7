"""The chroniclers' desk: drafted reports edited, published and withdrawn.

Services (``<noun>_<verb>``, keyword-only, like every service). Who may call them is decided by the
caller through ``campaign.league.roles.can_edit_reports``. Every write is one transaction that
raises ``Battle.version`` and then, once committed, queues the report files
(``battles.reports.queue.report_request``) and the public site's refresh
(``campaign.tasks.site_refresh``): a page never links to a stale PDF (the battle page links
only a PDF rendered for the current version).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.models import Battle, BattleSide
from battles.reports.draft import report_draft_markdown, report_drafts
from battles.reports.narrative import is_draft, writer_language
from battles.reports.queue import report_request
from battles.signals import report_changed, report_published
from campaign.core.markdown import MAX_MARKDOWN_CHARS

logger = logging.getLogger(__name__)


class ReportEditError(ValueError):
    """A report edit that cannot be saved; the message names the field. Nothing changed."""


def report_draft_write(*, battle: Battle, force: bool = False) -> Battle:
    """Write the drafted after-action report of a concluded ``battle`` and mark its
    report a draft (``report_state = draft``: its narrative is shown only to chroniclers
    and organisers until published).

    The draft (``battles.reports.draft.report_draft_markdown``: forces with points,
    objectives, turn by turn, losses, outcome) goes into ``battle.narrative`` when that is
    empty; a narrative typed at the table is kept (``force=True`` replaces it). Call it in
    the conclusion's transaction (``battles.services.battle_conclude``). Raises
    ``ReportEditError`` for a battle that is not concluded.
    """
    if battle.status != Battle.Status.CONCLUDED:
        raise ReportEditError(
            _("%(battle)s is not concluded: no report to draft.") % {"battle": battle.name}
        )
    fields = ["report_state", "report_published_at", "updated_at"]
    if force or not battle.narrative.strip():
        # Drafted in every language; ``narrative`` holds the campaign's (what search and
        # the API read), a reader gets their own (battles.reports.narrative).
        drafts = report_drafts(battle)
        battle.narrative_drafts = drafts
        battle.narrative = drafts.get(battle.campaign.language) or report_draft_markdown(battle)
        battle.narrative_language = ""
        fields += ["narrative", "narrative_drafts", "narrative_language"]
    battle.report_state = Battle.ReportState.DRAFT
    battle.report_published_at = None
    battle.save(update_fields=fields)
    return battle


def _check_length(label: str, text: str) -> str:
    if len(text) > MAX_MARKDOWN_CHARS:
        raise ReportEditError(
            _("%(field)s: %(n)d characters, at most %(max)d allowed.")
            % {"field": label, "n": len(text), "max": MAX_MARKDOWN_CHARS}
        )
    return text.replace("\r\n", "\n")


def _after_commit(battle: Battle) -> None:
    """Once the transaction commits: queue the report files, and send
    :data:`~battles.signals.report_changed` (the published site refreshes)."""
    report_request(battle=battle)
    report_changed.send(sender=Battle, battle=battle)


def _unchanged(
    battle: Battle,
    sides: Mapping[int, BattleSide],
    narrative: str | None,
    analysis: str | None,
    side_analyses: Mapping[int, str],
) -> bool:
    """True when saving these texts would store what ``battle`` holds already. A draft
    sent back in any language (the API and the desk show the reader's) is the stored draft."""
    if narrative is not None:
        text = narrative.replace("\r\n", "\n")
        if is_draft(battle, text):
            if battle.narrative_language or not is_draft(battle, battle.narrative):
                return False
        elif text != battle.narrative or battle.narrative_language != writer_language():
            return False
    if analysis is not None and analysis.replace("\r\n", "\n") != battle.analysis:
        return False
    return all(
        text.replace("\r\n", "\n") == sides[side_id].analysis
        for side_id, text in side_analyses.items()
    )


def report_edit(
    *,
    battle: Battle,
    narrative: str | None = None,
    analysis: str | None = None,
    side_analyses: Mapping[int, str] | None = None,
) -> Battle:
    """Save people's texts of ``battle``'s report: ``narrative`` and ``analysis``
    (Markdown, None keeps it) and ``side_analyses`` (``{BattleSide id: Markdown}``, sides
    of this battle only). Raises ``Battle.version``; a published report's files and site
    pages are refreshed after commit. Raises ``ReportEditError`` naming the field for a
    text over ``MAX_MARKDOWN_CHARS`` or a side of another battle; nothing is saved then.
    Texts equal to the stored ones change nothing: the same ``version``, no history row,
    nothing re-rendered (a caller tells a no-op by the unchanged version).
    A ``narrative`` other than its draft is recorded as written in the active language
    (the chronicler's, ``Battle.narrative_language``).
    """
    side_analyses = dict(side_analyses or {})
    sides = {s.pk: s for s in BattleSide.objects.filter(battle=battle).select_related("faction")}
    for side_id in side_analyses:
        if side_id not in sides:
            raise ReportEditError(
                _("Side %(id)s is not a side of %(battle)s.") % {"id": side_id, "battle": battle}
            )
    with transaction.atomic():
        battle = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
        if _unchanged(battle, sides, narrative, analysis, side_analyses):
            # Saving what is stored changes nothing: same version, no history row, no
            # re-render, no site rebuild.
            return battle
        fields = ["version", "updated_at"]
        if narrative is not None:
            battle.narrative = _check_length(_("Narrative"), narrative)
            # A person's own text is shown as written, in the language of the one who
            # wrote it; the draft saved unchanged stays a draft (one per reader's language).
            battle.narrative_language = "" if is_draft(battle, narrative) else writer_language()
            fields += ["narrative", "narrative_language"]
        if analysis is not None:
            battle.analysis = _check_length(_("Analysis"), analysis)
            fields.append("analysis")
        changed = []
        for side_id, text in side_analyses.items():
            side = sides[side_id]
            label = _("Analysis of %(side)s") % {"side": side.faction.name}
            side.analysis = _check_length(label, text)
            changed.append(side)
        BattleSide.objects.bulk_update(changed, ["analysis"])
        battle.version += 1
        battle.save(update_fields=fields)
        if battle.report_state == Battle.ReportState.PUBLISHED:
            transaction.on_commit(functools.partial(_after_commit, battle))
    return battle


def _set_state(battle: Battle, state: str) -> Battle:
    with transaction.atomic():
        battle = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
        if battle.status != Battle.Status.CONCLUDED:
            raise ReportEditError(
                _("%(battle)s is not concluded: its report cannot be published.")
                % {"battle": battle.name}
            )
        if battle.report_state == state:  # a second click: no new version, no re-render
            return battle
        battle.report_state = state
        battle.report_published_at = timezone.now() if state == "published" else None
        battle.version += 1
        battle.save(update_fields=["report_state", "report_published_at", "version", "updated_at"])
        transaction.on_commit(functools.partial(_after_commit, battle))
        if state == Battle.ReportState.PUBLISHED:
            report_published.send(sender=Battle, battle=battle)
    return battle


def report_publish(*, battle: Battle) -> Battle:
    """Publish ``battle``'s report: its narrative and analyses become public on the
    battle page, in the PDF (re-rendered after commit) and on the site (refreshed after
    commit). A report already published is left as it is: same ``version``, nothing
    re-rendered (its saved edits were re-rendered when saved, :func:`report_edit`), so a
    caller tells a no-op by the unchanged version. Raises ``ReportEditError`` for a
    battle that is not concluded."""
    return _set_state(battle, Battle.ReportState.PUBLISHED)


def report_withdraw(*, battle: Battle) -> Battle:
    """Withdraw ``battle``'s published report: back to a draft, its people's texts leave
    the public page, the PDF and the site (re-rendered after commit). Raises
    ``ReportEditError`` for a battle that is not concluded. A draft is left as it is
    (same ``version``)."""
    return _set_state(battle, Battle.ReportState.DRAFT)
