"""Intelligence: the ship classes each faction has met in a campaign.

Rules §5: within sensor range an observer learns the class of ships
"already encountered in this campaign", so knowledge of enemy classes is a campaign-level
record that grows battle by battle (written when a battle is concluded).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from battles.models import Participant
from campaign.league.models import Intel

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from battles.models import Battle
    from factions.models import Faction

__all__ = ["intel_for_faction", "intel_record_battle"]


def intel_record_battle(*, battle: Battle) -> int:
    """Record, for each side of ``battle``, every ship class fielded by the other side(s)
    (its ship participants' classes) as met by that side's faction in the battle's campaign.

    Idempotent: a (campaign, faction, class) already known keeps its row and first battle.
    Light-unit groups carry no ship class and teach nothing here. Call it when the battle is
    concluded (``battles.services.battle_conclude``); it does not check the status. Returns the
    number of ``Intel`` rows created. Written in one transaction.
    """

    rows = Participant.objects.filter(side__battle=battle, ship__isnull=False).values_list(
        "side__faction_id", "ship__ship_class_id"
    )
    fielded: dict[int, set[int]] = {}
    for faction_id, class_id in rows:
        fielded.setdefault(faction_id, set()).add(class_id)
    factions = set(
        battle.sides.values_list("faction_id", flat=True)
    )  # a side with no ship still meets the enemy's
    wanted = {
        (faction_id, class_id)
        for faction_id in factions
        for other, classes in fielded.items()
        if other != faction_id
        for class_id in classes
    }
    if not wanted:
        return 0
    with transaction.atomic():
        known = set(
            Intel.objects.filter(
                campaign_id=battle.campaign_id, faction_id__in=factions
            ).values_list("faction_id", "ship_class_id")
        )
        new = [
            Intel(
                campaign_id=battle.campaign_id,
                faction_id=faction_id,
                ship_class_id=class_id,
                first_battle=battle,
            )
            for faction_id, class_id in sorted(wanted - known)
        ]
        # ignore_conflicts: a concurrent conclusion may have written the same row.
        Intel.objects.bulk_create(new, ignore_conflicts=True)
    return len(new)


def intel_for_faction(*, faction: Faction) -> QuerySet[Intel]:
    """The classes ``faction`` has met, all campaigns, ordered by campaign then class name,
    with campaign, class and first battle loaded. Not scoped: callers check
    ``factions.access.can_see_faction_secrets`` first."""
    return (
        Intel.objects.filter(faction=faction)
        .select_related("campaign", "ship_class", "first_battle")
        .order_by("campaign__name", "ship_class__name")
    )


def intel_known_classes(*, battle: Battle) -> dict[str, list[str]]:
    """The ship class names each side's faction had met in ``battle``'s campaign before it,
    keyed by faction slug (the engine's side labels), sorted — what the engine's sensors
    may name on contact (rules §5)."""
    known: dict[str, list[str]] = {}
    for side in battle.sides.select_related("faction"):
        known[side.faction.slug] = sorted(
            Intel.objects.filter(campaign_id=battle.campaign_id, faction_id=side.faction_id)
            .values_list("ship_class__name", flat=True)
            .distinct()
        )
    return known
