"""Rules API: exact odds (django-ninja router mounted at ``/api/rules``).

Thin handler: the engine (``battles.rules.odds``) does the work; any ``RulesError``
(unknown weapon, out of range, bad screen) becomes a 400 in ``campaign/api.py``.
"""

from __future__ import annotations

import math

from django.http import HttpRequest
from ninja import Query, Router, Schema

from battles.rules.errors import RulesError
from battles.rules.odds import odds

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
    against screen level ``screen`` (rules/ft-incursion.md §7–§10). Probabilities are
    fractions as strings (``"4/5"``) with float companions; ``tail`` is the exact probability
    beyond the last listed value (see ``battles/rules/odds.py``)."""
    if not math.isfinite(q.range):  # pydantic reads "nan" and "inf" as floats
        raise RulesError(f'range "{q.range}" is not a number (a range in mu, e.g. 12)')
    # Bounds keep one request cheap (exact odds of 300 beam dice take about a second).
    if not 1 <= q.count <= 100:
        raise RulesError(f"count must be 1–100, got {q.count}")
    if q.power_points is not None and not 0 <= q.power_points <= 256:
        raise RulesError(f"power_points must be 0–256, got {q.power_points} (§8)")
    return odds(
        q.weapon,
        range_mu=q.range,
        screen=q.screen,
        target=q.target,
        power_points=q.power_points,
        count=q.count,
        as_pd=q.as_pd,
    ).as_dict()
