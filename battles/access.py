"""Which battles a user may see or act on, and which side they play: the scoping of the
battles app, on the league's roles (``campaign.league.roles``, whose docstring states the
rules). Pages, API handlers, reports and the site builder go through these.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from battles.models import Battle, BattleSide
from battles.visibility import unit_row
from campaign.league.models import Membership
from campaign.league.roles import User, is_organiser, organised_campaign_ids


def visible_battles(user: User) -> QuerySet:
    """Battles ``user`` may see: all for staff; concluded ones for everyone, plus the
    drafts of the campaigns the user organises (a draft may hold an unrevealed order or a
    secret note)."""

    qs = Battle.objects.all()
    if user is not None and user.is_authenticated and user.is_staff:
        return qs
    concluded = Q(status=Battle.Status.CONCLUDED)
    organised = organised_campaign_ids(user)
    if organised:
        return qs.filter(concluded | Q(campaign_id__in=organised))
    return qs.filter(concluded)


def played_side_ids(user: User, battle) -> set[int]:
    """Ids of ``battle``'s sides whose faction ``user`` plays in the battle's campaign:
    the sides whose record entries (and orders) they may submit."""

    if user is None or not user.is_authenticated:
        return set()
    factions = Membership.objects.filter(
        user=user, campaign_id=battle.campaign_id, role=Membership.Role.PLAYER
    ).values("faction_id")
    return set(
        BattleSide.objects.filter(battle=battle, faction_id__in=factions).values_list(
            "pk", flat=True
        )
    )


def battle_side_slug(user: User, battle) -> str | None:
    """The faction slug of the side of ``battle`` that ``user`` plays (a player membership
    of the battle's campaign for that side's faction), or None."""

    if user is None or not user.is_authenticated:
        return None
    factions = Membership.objects.filter(
        user=user, role=Membership.Role.PLAYER, campaign_id=battle.campaign_id
    ).values("faction_id")
    side = (
        BattleSide.objects.filter(battle=battle, faction_id__in=factions)
        .select_related("faction")
        .order_by("order", "pk")
        .first()
    )
    return side.faction.slug if side else None


def battle_perspective(user: User, battle) -> tuple[str, str | None]:
    """How ``user`` sees an engine-fought ``battle``'s board and log (battles/play/board.py):
    ``("all", None)`` for staff and the campaign's organisers, ``("side", slug)`` for a
    player of one of its sides (their sensors only), else ``("public", None)`` (what a
    player of neither side would see: hidden fleets never shown)."""
    if is_organiser(user, battle.campaign):
        return ("all", None)
    slug = battle_side_slug(user, battle)
    return ("side", slug) if slug else ("public", None)


def actionable_battles(user: User) -> QuerySet:
    """Battles ``user`` may act on or see for acting: :func:`visible_battles`, plus the
    drafts of the campaigns where the user plays a faction that is one of their sides (a
    player records and orders their side of an unconcluded battle). Read pages and lists
    keep using :func:`visible_battles`."""

    qs = visible_battles(user)
    if user is None or not user.is_authenticated or user.is_staff:
        return qs
    played = Membership.objects.filter(user=user, role=Membership.Role.PLAYER).exclude(faction=None)
    pairs = list(played.values_list("campaign_id", "faction_id"))
    if not pairs:
        return qs
    playing = Q()
    for campaign_id, faction_id in pairs:
        playing |= Q(campaign_id=campaign_id, sides__faction_id=faction_id)
    return Battle.objects.filter(Q(pk__in=qs.values("pk")) | playing).distinct()


def unit_fleet_id(participant) -> int | None:
    """The fleet whose visibility a battle participant follows: a ship's fleet; a
    light-unit group's own fleet, else its carrier's (a hidden carrier hides the fighters
    it carries); None for a group based at a station or colony (public).

    ``participant`` is a ``battles.models.Participant`` with ``ship`` and
    ``light_units__carrier`` loaded (``select_related``) to avoid a query per unit.
    The rule is ``battles.visibility.followed_fleet``'s.
    """
    return unit_row(participant).fleet_id
