"""The chroniclers' desk in the API (django-ninja router mounted at ``/api/``): the same
actions as the pages of ``battles.web.desk``, through the same services (``battles.reports.desk``).

- ``GET /api/battles/{id}/report`` — the report's people's texts and state;
- ``PUT /api/battles/{id}/report`` — save texts (``narrative``, ``analysis``,
  ``side_analyses`` by side id; a field left out is kept);
- ``POST /api/battles/{id}/report/publish`` and ``…/withdraw``.

401 without a user (``campaign.league.api_auth``: a personal token, or the session with its
CSRF token, like every other write endpoint); 404 for anyone who
may not edit the report (``campaign.league.roles.can_edit_reports``: the campaign's chroniclers
and organisers, staff) and for a battle that is not concluded; 400 with the message for a
refused edit (a text over the cap, a side of another battle).
"""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router, Schema, Status

from battles.access import visible_battles
from battles.models import Battle
from battles.reports import desk as desk_services
from battles.reports.narrative import narrative_for, reader_language
from campaign.core.api_errors import ErrorOut
from campaign.league.api_auth import api_auth
from campaign.league.roles import require_chronicler

router = Router(tags=["reports"])


class ReportOut(Schema):
    battle: int
    version: int
    state: str
    published_at: datetime | None
    narrative: str
    analysis: str
    side_analyses: dict[int, str]
    # what the call did when it did nothing (publishing a published report), else ""
    detail: str = ""


class ReportIn(Schema):
    narrative: str | None = None
    analysis: str | None = None
    side_analyses: dict[int, str] | None = None


def _editable(request: HttpRequest, battle_id: int) -> Battle:
    battle = get_object_or_404(
        visible_battles(request.user)
        .filter(status=Battle.Status.CONCLUDED)
        .select_related("campaign"),
        pk=battle_id,
    )
    require_chronicler(request.user, battle.campaign)  # 403 for members, 404 for others
    return battle


def _out(battle: Battle, detail: str = "") -> dict:
    battle.refresh_from_db()
    return {
        "detail": detail,
        "battle": battle.pk,
        "version": battle.version,
        "state": battle.report_state,
        "published_at": battle.report_published_at,
        # The draft in the caller's language; a person's text as written.
        "narrative": narrative_for(battle, reader_language()).text,
        "analysis": battle.analysis,
        "side_analyses": {s.pk: s.analysis for s in battle.sides.order_by("pk")},
    }


_RESPONSES = {200: ReportOut, 400: ErrorOut, 404: ErrorOut}


@router.get("/battles/{battle_id}/report", response=_RESPONSES, auth=api_auth)
def report_read(request: HttpRequest, battle_id: int):
    """The report's texts (drafts included) for those who may edit it."""
    return _out(_editable(request, battle_id))


@router.put("/battles/{battle_id}/report", response=_RESPONSES, auth=api_auth)
def report_write(request: HttpRequest, battle_id: int, payload: ReportIn):
    """Save the report's texts (``battles.reports.desk.report_edit``). Texts equal to the
    stored ones answer 200 with the current version and a ``detail`` saying nothing was
    saved (no new version, nothing re-rendered)."""
    battle = _editable(request, battle_id)
    version = battle.version
    try:
        battle = desk_services.report_edit(
            battle=battle,
            narrative=payload.narrative,
            analysis=payload.analysis,
            side_analyses=payload.side_analyses,
        )
    except desk_services.ReportEditError as exc:
        return Status(400, {"detail": str(exc)})
    if battle.version == version:
        return _out(battle, _("The texts are unchanged; nothing was saved."))
    return _out(battle)


@router.post("/battles/{battle_id}/report/publish", response=_RESPONSES, auth=api_auth)
def report_publish(request: HttpRequest, battle_id: int):
    """Publish the report: public texts, PDF and site refreshed after commit. A report
    already published answers 200 with a ``detail`` saying so; nothing is done (same
    version, nothing re-rendered)."""
    battle = _editable(request, battle_id)
    version = battle.version
    battle = desk_services.report_publish(battle=battle)
    if battle.version == version:
        return _out(battle, _("The report is already published; nothing was done."))
    return _out(battle)


@router.post("/battles/{battle_id}/report/withdraw", response=_RESPONSES, auth=api_auth)
def report_withdraw(request: HttpRequest, battle_id: int):
    """Withdraw the report back to a draft."""
    return _out(desk_services.report_withdraw(battle=_editable(request, battle_id)))
