"""How many objectives each side of a battle met (``BattleSide.objectives_met``), set by
the campaign's organisers on the battle page, the record page or the API, before or after
the conclusion: a concluded battle's awards are written again at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from battles.models import Battle, BattleSide
from battles.scoring.awards import battle_awards_write
from battles.scoring.rules import whole_number
from battles.services.permissions import require_battle_organiser
from campaign.core.refusals import Kind, Refused
from campaign.league.roles import User

#: The most objectives a side may be credited with in one battle.
OBJECTIVES_MAX = 100


def side_objectives_set(
    *, battle: Battle, user: User, values: Mapping[str, Any]
) -> list[BattleSide]:
    """Set the objectives met of ``battle``'s sides from ``values`` (faction slug → whole
    number 0–:data:`OBJECTIVES_MAX`; sides left out keep theirs) and, when the battle is
    concluded, write its awards again (``battles.scoring.awards.battle_awards_write``);
    one transaction. Returns the sides, in order. ``user`` must organise the campaign
    (:class:`Refused`: 404 outside it, 403 for its other members); a slug that is not a
    side or a bad number raises :class:`Refused` (invalid) naming the field
    (``objectives_met.<slug>``) and changes nothing."""
    require_battle_organiser(user, battle.campaign)
    with transaction.atomic():
        b = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
        sides = list(b.sides.select_related("faction"))
        by_slug = {s.faction.slug: s for s in sides}
        errors: list[tuple[str, str]] = []
        changed: list[BattleSide] = []
        for slug, raw in values.items():
            field = f"objectives_met.{slug}"
            side = by_slug.get(slug)
            value = whole_number(raw)
            if side is None:
                errors.append((field, _("not a side of this battle")))
            elif value is None or not 0 <= value <= OBJECTIVES_MAX:
                errors.append(
                    (field, _("a whole number from 0 to %(max)s") % {"max": OBJECTIVES_MAX})
                )
            elif side.objectives_met != value:
                side.objectives_met = value
                changed.append(side)
        if errors:
            raise Refused(
                _("objectives met: %(fields)s") % {"fields": ", ".join(f for f, _m in errors)},
                kind=Kind.INVALID,
                errors=errors,
            )
        for side in changed:
            side.save(update_fields=["objectives_met"])
        if changed and b.status == Battle.Status.CONCLUDED:
            battle_awards_write(b)
    return sides
