"""battle_reopen puts back only what the conclusion changed (battles/services/reopen.py):
a rename, a captain or a squadron set since the battle is kept; a damage field changed
since is refused by ship and field; a snapshot of the first form (every field, before
only) still reopens without touching names, captains, squadrons or notes."""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleSnapshot, Participant
from battles.services import BattleActionError, battle_reopen, battle_resolve
from campaign.core.actors import SYSTEM
from factions.models import Commander, LightUnitGroup, Ship, Squadron
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
SEED = 20261130


def _every_field(obj) -> dict:
    """A unit as the first form of the snapshot kept it: every field by attname."""
    return {
        f.attname: getattr(obj, f.attname)
        for f in type(obj)._meta.concrete_fields
        if not f.primary_key
    }


def _damaged(battle: Battle) -> Ship:
    """A ship of ``battle`` the conclusion gave hull damage to."""
    return (
        Ship.objects.filter(participations__side__battle=battle, hull_lost__gt=0)
        .order_by("pk")
        .first()
    )


def test_the_snapshot_keeps_only_the_fields_changed_with_before_and_after():
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    ship = _damaged(battle)
    data = BattleSnapshot.objects.get(battle=battle).data
    assert data["format"] == 2
    kept = data["ships"][str(ship.pk)]
    assert kept["hull_lost"] == {"before": 0, "after": ship.hull_lost}
    assert "name" not in kept and "captain" not in kept and "notes" not in kept


def test_a_rename_captain_and_squadron_set_after_the_battle_survive_the_reopen():
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    ship = _damaged(battle)
    squadron = Squadron.objects.create(fleet=ship.fleet, name="Second")
    Ship.objects.filter(pk=ship.pk).update(
        name="Tyr", squadron=squadron, notes="refitted at Mieska"
    )
    Commander.objects.create(faction=ship.fleet.faction, name="Cdr Hala", ship=ship)
    battle_reopen(user=SYSTEM, battle=battle)
    ship.refresh_from_db()
    assert (ship.name, ship.captain.name, ship.squadron_id, ship.notes) == (
        "Tyr",
        "Cdr Hala",
        squadron.pk,
        "refitted at Mieska",
    )
    assert (ship.hull_lost, ship.status) == (0, "active")  # the battle's damage undone
    assert Battle.objects.get(pk=battle.pk).status == "draft"


def test_hull_changed_after_the_battle_refuses_the_reopen_naming_ship_and_field():
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    ship = _damaged(battle)
    Ship.objects.filter(pk=ship.pk).update(name="Tyr")
    after = ship.hull_lost
    Ship.objects.filter(pk=ship.pk).update(hull_lost=after + 2)
    with pytest.raises(BattleActionError) as refused:
        battle_reopen(user=SYSTEM, battle=battle)
    assert str(refused.value) == (
        f"battle {battle.pk} (Skirmish skirmish): ship 'Tyr' (hull boxes lost) changed "
        f"since the battle was concluded: {after} → {after + 2}; undo that first"
    )
    # Nothing changed: still concluded, the snapshot kept, the later hull kept.
    assert Battle.objects.get(pk=battle.pk).status == "concluded"
    assert BattleSnapshot.objects.filter(battle=battle).exists()
    assert Ship.objects.get(pk=ship.pk).hull_lost == after + 2


def test_a_snapshot_of_the_first_form_reopens_damage_only():
    battle = draft_skirmish()
    units = Participant.objects.filter(side__battle=battle)
    ships = {str(s.pk): _every_field(s) for s in Ship.objects.filter(participations__in=units)}
    groups = {
        str(g.pk): _every_field(g) for g in LightUnitGroup.objects.filter(participations__in=units)
    }
    parts = {str(p.pk): _every_field(p) for p in units}
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    snap = BattleSnapshot.objects.get(battle=battle)
    data = dict(snap.data)
    del data["format"]
    data.update(ships=ships, light_units=groups, participants=parts)
    snap.data = data
    snap.save()
    ship = _damaged(battle)
    assert ship.hull_lost > 0
    Ship.objects.filter(pk=ship.pk).update(name="Tyr", notes="a note")
    Commander.objects.create(faction=ship.fleet.faction, name="Cdr Hala", ship=ship)

    battle_reopen(user=SYSTEM, battle=battle)
    ship.refresh_from_db()
    assert (ship.name, ship.captain.name, ship.notes) == ("Tyr", "Cdr Hala", "a note")
    assert (ship.hull_lost, ship.armour_lost, ship.crew_lost, ship.systems_lost) == (
        0,
        0,
        0,
        [],
    )
    assert ship.status == "active"
    assert set(Participant.objects.filter(side__battle=battle).values_list("fate", flat=True)) == {
        "unharmed"
    }
    for g in LightUnitGroup.objects.filter(pk__in=[int(k) for k in groups]):
        assert g.strength == groups[str(g.pk)]["strength"]
