"""The battle page's panels for the signed-in: the odds panel and the organisers' panel,
rendered once per version of what they show and cached beside the report
(``battles.reports.page_cache``; ``key``: the report's key, None when nothing may be
cached).

The organisers' panel holds forms: it is cached with a stand-in for the CSRF token, which
each request replaces by its own (``django.middleware.csrf.get_token``); no token is ever
cached. Its key adds the battle's timeline rows (one query: they are the panel's only
read the report's key does not cover), whether a turn-by-turn play is running and the
time zone its dates are shown in.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone

from battles.access import battle_perspective
from battles.models import Battle, BattleAction, BattleSide
from battles.play.context import battle_viewer, odds_panel
from battles.reports.page_cache import cached_fragments
from battles.visibility import Reader

__all__ = ["odds_html", "organiser_html"]

# Letters only: the {% csrf_token %} tag escapes what it is given.
_CSRF_STAND_IN = "csrfstandin7e3f0a9c"


def odds_html(
    request: HttpRequest, battle: Battle, organiser: bool, reader: Reader, key: str | None
) -> str:
    """The battle page's odds panel for ``request.user`` (``battles.play.context
    .odds_panel`` rendered by ``battles/_odds_panel.html``), cached per perspective;
    ``""`` for the public (no panel)."""
    perspective = ("all", None) if organiser else battle_perspective(request.user, battle)
    if perspective[0] == "public":
        return ""
    viewer = battle_viewer(battle, request.user, perspective)

    def build() -> dict[str, Any]:
        odds = odds_panel(battle, request.user, viewer=viewer, reader=reader)
        html = render_to_string("battles/_odds_panel.html", {"odds": odds}) if odds else ""
        return {"odds": html}

    mode, side = perspective
    return cached_fragments(key and f"{key}:odds:{mode}:{side}", build)["odds"]


def organiser_html(
    request: HttpRequest, battle: Battle, key: str | None, *, turn_play_running: bool
) -> str:
    """The organisers' panel of ``battle`` (``battles/_organiser_panel.html``: resolve,
    record or reopen, the objectives met, the timeline), with this request's CSRF token.
    ``turn_play_running``: ``battles.play.context.turn_links``' flag."""
    fields = [f.attname for f in BattleAction._meta.concrete_fields]
    rows = list(
        BattleAction.objects.filter(battle=battle)
        .order_by("at", "pk")
        .values_list(*fields, "user__username")
    )
    if key is not None:
        stamp = [rows, turn_play_running, timezone.get_current_timezone_name()]
        text = json.dumps(stamp, default=str, separators=(",", ":"))
        key = f"{key}:organiser:{hashlib.sha256(text.encode()).hexdigest()}"

    def build() -> dict[str, str]:
        actions = list(
            BattleAction.objects.filter(battle=battle).select_related("user").order_by("at", "pk")
        )
        context = {
            "battle": battle,
            "sides": list(BattleSide.objects.filter(battle=battle).select_related("faction")),
            "actions": actions,
            "turn_play_running": turn_play_running,
            "csrf_token": _CSRF_STAND_IN,
        }
        return {"panel": render_to_string("battles/_organiser_panel.html", context)}

    panel = cached_fragments(key, build)["panel"]
    return panel.replace(_CSRF_STAND_IN, get_token(request))
