"""Rules API: exact odds and a campaign's rules in force (django-ninja router mounted at
``/api/rules``).

Thin handler: the engine (``battles.rules.odds``) does the work; any ``RulesError``
(unknown weapon, out of range, bad screen, a volley of more than ``MAX_REQUEST_DICE``
dice) becomes a 400 in ``campaign/api/__init__.py``.
"""

from __future__ import annotations

import math

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Query, Router, Schema

from battles.readings import rules_in_force
from battles.rules.errors import RulesError
from battles.rules.odds import MAX_REQUEST_COUNT, MAX_REQUEST_DICE, odds
from battles.rules.weapons import get_weapon
from campaign.league.models import Campaign

router = Router(tags=["rules"])


class OddsQuery(Schema):
    weapon: str
    range: float
    screen: int = 0
    target: str | None = None
    power_points: int | None = None
    count: int = 1
    as_pd: bool = False


class OddsPoint(Schema):
    value: int
    p: str
    p_float: float


class OddsOut(Schema):
    weapon: str
    range: float
    screen: int
    resolved_as: str
    screens_apply: bool
    target: str
    dice: int
    value_kind: str
    mean: str
    mean_float: float
    distribution: list[OddsPoint]
    tail: str
    tail_float: float


@router.get("/odds", response=OddsOut, summary="Exact odds of one volley")
def rules_odds(request: HttpRequest, q: Query[OddsQuery]) -> dict[str, object]:
    """Exact distribution of damage (or hits, systems, kills) of ``weapon`` at ``range`` mu
    against screen level ``screen`` (rules §7–§10). Probabilities are
    fractions as strings (``"4/5"``) with float companions; ``tail`` is the exact probability
    beyond the last listed value (see ``battles/rules/odds.py``)."""
    if not math.isfinite(q.range):  # pydantic reads "nan" and "inf" as floats
        weapon = get_weapon(q.weapon).id  # an unknown id is refused first, as such
        raise RulesError(
            _('%(weapon)s: range "%(range)s" is not a number (a range in mu, e.g. 12)')
            % {"weapon": weapon, "range": q.range}
        )
    # Bounds keep one request cheap: the dice summed (MAX_REQUEST_DICE, about half a
    # second at most), not each parameter alone; odds() names the weapon and the limit.
    if not 1 <= q.count <= MAX_REQUEST_COUNT:
        raise RulesError(
            _("count must be 1–%(max)s, got %(count)s")
            % {"max": MAX_REQUEST_COUNT, "count": q.count}
        )
    return odds(
        q.weapon,
        range_mu=q.range,
        screen=q.screen,
        target=q.target,
        power_points=q.power_points,
        count=q.count,
        as_pd=q.as_pd,
        max_dice=MAX_REQUEST_DICE,
    ).as_dict()


class SettingOut(Schema):
    name: str
    value: str
    default: str
    changed: bool


class ReadingOut(Schema):
    id: str
    section: str
    meaning: str
    seed: str
    changed: bool
    settings: list[SettingOut]


class RulesInForceOut(Schema):
    campaign: str
    error: str | None
    readings: list[ReadingOut]


@router.get("/campaigns/{slug}", response=RulesInForceOut, summary="A campaign's rules in force")
def campaign_rules_in_force(request: HttpRequest, slug: str) -> dict[str, object]:
    """Every reading D-n of the rules with what it means (in the request's
    language), the seed's words and the campaign's settings against the defaults (§16);
    ``error`` names options the engine refuses. Public, as the campaign page; 404 for an
    unknown campaign. The page ``/campaigns/<slug>/rules/`` shows the same."""

    campaign = get_object_or_404(Campaign, slug=slug)
    found = rules_in_force(rule_options=campaign.rule_options)
    readings = [{**r, "meaning": str(r["meaning"])} for r in found["readings"]]
    return {"campaign": campaign.slug, "error": found["error"], "readings": readings}
