"""Finding, creating and posting a faction's commanders by name: what the fleet-list
import, the fleet API and the sample loader call where they used to write a text name.

A commander is in one place at a time (``factions.commanders.models``): posting someone
takes them from their former place, and the place's former holder is relieved (left
without a place, not deleted: their record and renown stay).
"""

from __future__ import annotations

from django.db import transaction

from campaign.core.validation import clean_text
from factions.commanders.models import Commander
from factions.models import Faction, Fleet, Ship, Squadron

#: The rank a new commander gets from the place they are first posted to.
RANK_OF_POST = {
    "fleet": Commander.Rank.ADMIRAL,
    "squadron": Commander.Rank.COMMANDER,
    "ship": Commander.Rank.CAPTAIN,
}
NAME_MAX = Commander._meta.get_field("name").max_length


def commander_clean_name(name: str, *, field: str) -> str:
    """``name`` stripped, or ``TextError`` (a ``ValidationError``) naming ``field`` for a
    NUL, a lone surrogate or more than 200 characters (``campaign.core.validation``)."""
    return clean_text(name, field=field, max_length=NAME_MAX)


def commander_post(
    *,
    faction: Faction,
    name: str,
    fleet: Fleet | None = None,
    squadron: Squadron | None = None,
    ship: Ship | None = None,
) -> Commander | None:
    """Post the commander of ``faction`` called ``name`` (stripped) to exactly one of
    ``fleet`` (admiral), ``squadron`` (commander) or ``ship`` (captain); returns them.

    The same name in the same faction is the same person: an existing record is reused
    (moved from where they were), else one is created with the post's rank
    (:data:`RANK_OF_POST`). Whoever held the place before is relieved. An empty name
    relieves the place's holder and returns None. A name that cannot be stored raises
    ``TextError`` naming the post (``admiral``, ``commander``, ``captain``). One
    transaction; the caller validated that the place is ``faction``'s.
    """
    places = {"fleet": fleet, "squadron": squadron, "ship": ship}
    posted = [(post, place) for post, place in places.items() if place is not None]
    if len(posted) != 1:
        raise ValueError("commander_post takes exactly one of fleet, squadron, ship")
    post, place = posted[0]
    field = {"fleet": "admiral", "squadron": "commander", "ship": "captain"}[post]
    name = commander_clean_name(name, field=field)
    with transaction.atomic():
        holder = Commander.objects.filter(**{post: place}).first()
        if holder is not None and holder.name == name and holder.faction_id == faction.pk:
            return holder
        if holder is not None:
            setattr(holder, post, None)
            holder.save(update_fields=[post])
        if not name:
            return None
        person = Commander.objects.filter(faction=faction, name=name).first()
        if person is None:
            person = Commander(faction=faction, name=name, rank=RANK_OF_POST[post])
        person.fleet = person.squadron = person.ship = None
        setattr(person, post, place)
        person.save()
        return person


def commander_name(holder: object, post: str) -> str:
    """The name of ``holder``'s commander (``post``: ``"admiral"``, ``"commander"`` or
    ``"captain"``: the reverse one-to-one), ``""`` without one; no query when it was
    read with ``select_related(post)``."""
    person = getattr(holder, post, None)  # a missing one-to-one raises DoesNotExist
    return person.name if person is not None else ""
