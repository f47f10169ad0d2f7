"""A campaign's scoring rules: read with their defaults, edited by its organisers, written
in words for the standings page.

Source: the campaign's own league rules (the Full Thrust rules score no campaign; the
seed's campaign sheet counts battles, objectives and territories held).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from battles.models import ScoringRules, VictoryAward
from campaign.core.refusals import Kind, Refused
from campaign.league.models import Campaign
from campaign.league.roles import User, require_organiser

#: The editable fields, in the order of the form and the API.
RULE_FIELDS = (
    "victory",
    "draw",
    "defeat",
    "per_objective",
    "per_holding",
    "destroyed_points",
    "destroyed_per",
)

#: The largest value a rule takes (VP or points); ``destroyed_per`` is at least 1.
RULE_MAX = 1_000_000


def rules_for(campaign: Campaign) -> ScoringRules:
    """``campaign``'s :class:`ScoringRules` (one query). Every campaign gets its row with
    the defaults when it is created (``battles.scoring.receivers``; the migration gave one
    to those before); should it be missing, the defaults are returned unsaved, so that a
    page or a site build never writes."""
    return ScoringRules.objects.filter(campaign=campaign).first() or ScoringRules(campaign=campaign)


def points_for(rules: ScoringRules, reason: str, count: int) -> int:
    """The VP a faction earns for ``count`` of ``reason`` (a ``VictoryAward.Reason``):
    the outcome's VP (``count`` is 1), ``per_objective`` × objectives met,
    ``per_holding`` × territories held, ``destroyed_points`` × whole blocks of
    ``destroyed_per`` construction points destroyed (rounded down)."""
    R = VictoryAward.Reason
    if reason == R.DESTROYED:
        return rules.destroyed_points * (count // max(rules.destroyed_per, 1))
    rate = {
        R.VICTORY: rules.victory,
        R.DRAW: rules.draw,
        R.DEFEAT: rules.defeat,
        R.OBJECTIVES: rules.per_objective,
        R.HOLDINGS: rules.per_holding,
    }[reason]
    return rate * count


def rules_in_words(rules: ScoringRules) -> list[str]:
    """The rules as sentences in the active language, one per way of scoring."""
    vp = ngettext
    return [
        _("A battle won earns %(v)s, a draw %(d)s, a battle lost %(l)s.")
        % {
            "v": vp("%(n)s VP", "%(n)s VP", rules.victory) % {"n": rules.victory},
            "d": vp("%(n)s VP", "%(n)s VP", rules.draw) % {"n": rules.draw},
            "l": vp("%(n)s VP", "%(n)s VP", rules.defeat) % {"n": rules.defeat},
        },
        _("Each objective a side meets earns %(n)s VP.") % {"n": rules.per_objective},
        _(
            "Each star system a faction holds when a campaign turn closes (each territory, "
            "in a campaign without a star map) earns %(n)s VP."
        )
        % {"n": rules.per_holding},
        _(
            "Every %(per)s construction points of enemy ships destroyed or captured in a "
            "battle earn %(n)s VP (rounded down, battle by battle)."
        )
        % {"per": rules.destroyed_per, "n": rules.destroyed_points},
        _(
            "A faction's points are shared evenly among its players at the time "
            "(a point left over goes to the longest-standing player)."
        ),
    ]


def clean_rules(values: Mapping[str, Any]) -> dict[str, int]:
    """The rule fields of ``values`` as whole numbers; fields left out keep their value.
    Raises :class:`Refused` (invalid) naming every field that is not a whole number from 0
    to :data:`RULE_MAX` (``destroyed_per`` from 1), or that is not a rule."""
    errors: list[tuple[str, str]] = []
    clean: dict[str, int] = {}
    for name, raw in values.items():
        if name not in RULE_FIELDS:
            errors.append((name, _("not a scoring rule")))
            continue
        low = 1 if name == "destroyed_per" else 0
        value = whole_number(raw)
        if value is None or not low <= value <= RULE_MAX:
            errors.append(
                (
                    name,
                    _("a whole number from %(low)s to %(high)s") % {"low": low, "high": RULE_MAX},
                )
            )
            continue
        clean[name] = value
    if errors:
        raise Refused(
            _("scoring rules: %(fields)s") % {"fields": ", ".join(f for f, _m in errors)},
            kind=Kind.INVALID,
            errors=errors,
        )
    return clean


def whole_number(raw: Any) -> int | None:
    """``raw`` as a whole number ≥ 0 (an int, or a string of at most ten digits), else
    None (a bool, a fraction, a sign, text)."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and raw.strip().isdigit() and len(raw.strip()) <= 10:
        return int(raw.strip())
    return None


def scoring_rules_update(
    *, campaign: Campaign, user: User, values: Mapping[str, Any]
) -> ScoringRules:
    """Set ``campaign``'s scoring rules from ``values`` (field → whole number, see
    :func:`clean_rules`) and recompute every award of the campaign with them
    (each award's ``count`` and share re-priced), in one transaction; returns the rules.
    ``user`` must organise the campaign (:class:`Refused`: 404 outside it, 403 for its
    other members); bad values raise :class:`Refused` (invalid) and change nothing."""
    require_organiser(user, campaign)
    clean = clean_rules(values)
    with transaction.atomic():
        ScoringRules.objects.get_or_create(campaign=campaign)
        rules = ScoringRules.objects.select_for_update().get(campaign=campaign)
        for name, value in clean.items():
            setattr(rules, name, value)
        rules.save()
        _recompute(campaign, rules)
    return rules


def _recompute(campaign: Campaign, rules: ScoringRules) -> None:
    """Re-price every award of ``campaign`` from its ``count`` and share."""
    awards = list(VictoryAward.objects.filter(campaign=campaign))
    for award in awards:
        award.points = share_of(
            points_for(rules, award.reason, award.count), award.share, award.shares
        )
    VictoryAward.objects.bulk_update(awards, ["points"], batch_size=500)


def share_of(whole: int, share: int, shares: int) -> int:
    """Share number ``share`` (0-based) of ``whole`` points split evenly into ``shares``:
    ``whole // shares``, plus one for the first ``whole % shares`` shares (so the shares
    sum to ``whole``)."""
    shares = max(shares, 1)
    return whole // shares + (1 if share < whole % shares else 0)
