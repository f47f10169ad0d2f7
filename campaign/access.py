"""Who may see and change what: the one scoping helper every view, API handler and the
site builder goes through (STYLE.md: thin views, one scoping helper).

Rules:
- staff and organisers of any campaign see everything and may change league data;
- a player sees public data plus the hidden data of their own faction(s);
- anyone else (anonymous, chronicler, outsider) sees public data only;
- the published site is built as the anonymous public (``user=None``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from django.db.models import Q, QuerySet

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from factions.models import Faction

    User: TypeAlias = AbstractBaseUser | AnonymousUser | None


def is_organiser(user: User) -> bool:
    """True for staff and for organisers of at least one campaign."""
    from .models import Membership

    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return Membership.objects.filter(user=user, role=Membership.Role.ORGANISER).exists()


def player_faction_ids(user: User) -> set[int]:
    """Ids of the factions ``user`` plays (empty for anonymous users and non-players)."""
    from .models import Membership

    if user is None or not user.is_authenticated:
        return set()
    return set(
        Membership.objects.filter(user=user, role=Membership.Role.PLAYER)
        .exclude(faction=None)
        .values_list("faction_id", flat=True)
    )


def can_see_faction_secrets(user: User, faction: Faction) -> bool:
    """True if ``user`` may see ``faction``'s hidden fleets and notes."""
    return is_organiser(user) or faction.pk in player_faction_ids(user)


def visible_fleets(user: User) -> QuerySet:
    """Fleets ``user`` may see: public ones plus hidden ones of their own faction."""
    from factions.models import Fleet

    qs = Fleet.objects.all()
    if is_organiser(user):
        return qs
    return qs.filter(Q(hidden=False) | Q(faction_id__in=player_faction_ids(user)))


def visible_ships(user: User) -> QuerySet:
    """Ships ``user`` may see: those of the fleets returned by :func:`visible_fleets`."""
    from factions.models import Ship

    return Ship.objects.filter(fleet__in=visible_fleets(user))


def visible_battles(user: User) -> QuerySet:
    """Battles ``user`` may see: all for organisers; concluded ones for everyone else
    (a draft may hold an unrevealed order or a secret note, DESIGN.md §5)."""
    from battles.models import Battle

    qs = Battle.objects.all()
    if is_organiser(user):
        return qs
    return qs.filter(status=Battle.Status.CONCLUDED)
