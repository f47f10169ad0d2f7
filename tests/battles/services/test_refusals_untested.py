"""Refusals of the battle services no other test reached, each with its exact message and
nothing written: previewing a concluded battle, replaying a battle never resolved,
fielding other than two sides, a ship on both sides or a design the engine refuses,
confirming or rejecting a record entry twice."""

from __future__ import annotations

import re

import pytest

from battles.models import BattleSide, Participant, RecordEntry
from battles.services import (
    BattleActionError,
    battle_replay,
    battle_resolve,
    battle_resolve_preview,
    record_confirm,
    record_reject,
    record_submit,
)
from campaign.core.actors import SYSTEM
from factions.models import Faction, Fleet
from tests.battles.battle_fixtures import draft_skirmish
from tests.db_rows import row_counts

# The services' English messages (the French ones are the catalogue's).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
SEED = 20261130


def refused(call, message: str) -> None:
    """``call()`` raises BattleActionError saying exactly ``message``; no row changed."""
    before = row_counts()
    with pytest.raises(BattleActionError, match=f"^{re.escape(message)}$"):
        call()
    assert row_counts() == before


def test_a_concluded_battle_has_no_preview():
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    battle.refresh_from_db()
    refused(
        lambda: battle_resolve_preview(battle=battle, seed=SEED),
        f"battle {battle.pk} (Skirmish skirmish) is already concluded",
    )


def test_a_battle_never_resolved_cannot_be_replayed():
    battle = draft_skirmish()
    refused(
        lambda: battle_replay(battle=battle),
        f"battle {battle.pk} (Skirmish skirmish) was not resolved: no setup",
    )


def test_auto_resolve_fields_exactly_two_sides():
    battle = draft_skirmish()
    third = Faction.objects.create(name="Kra'vak", slug="kravak")
    fleet = Fleet.objects.create(faction=third, name="Kra'vak raid", slug="kravak-raid")
    BattleSide.objects.create(battle=battle, faction=third, fleet=fleet, order=2)
    refused(
        lambda: battle_resolve_preview(battle=battle, seed=SEED),
        f"battle {battle.pk} (Skirmish skirmish): auto-resolve needs exactly two sides, found 3",
    )


def test_a_ship_on_both_sides_is_refused():
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    raam = Participant.objects.get(side__order=0).ship
    Participant.objects.create(side=battle.sides.get(order=1), ship=raam)
    twice = Participant.objects.filter(ship=raam).order_by("pk").last()
    refused(
        lambda: battle_resolve_preview(battle=battle, seed=SEED),
        f"participant {twice.pk} (Ra'am #1): the ship takes part twice",
    )


def test_a_design_the_engine_refuses_names_the_participant_and_class():
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    raam = Participant.objects.get(side__order=0)
    ship_class = raam.ship.ship_class
    ship_class.design = {"systems": [{"id": "beam-a", "kind": "beam"}]}  # no mass
    ship_class.save()
    refused(
        lambda: battle_resolve_preview(battle=battle, seed=SEED),
        f"participant {raam.pk} (Ra'am #1): class \"Ra'am\" (design): "
        "design '?': missing or bad field 'mass' (mass, hull)",
    )


def _entry(battle):
    side = battle.sides.get(order=0)
    return record_submit(battle=battle, side=side, user=SYSTEM, results=[])


@pytest.mark.parametrize("first", ["confirm", "reject"])
@pytest.mark.parametrize("then", ["confirm", "reject"])
def test_an_entry_is_confirmed_or_rejected_once(first, then):
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    entry = _entry(battle)
    act = {"confirm": record_confirm, "reject": record_reject}
    act[first](entry=entry, user=SYSTEM)
    status = {"confirm": "confirmed", "reject": "rejected"}[first]
    assert RecordEntry.objects.get(pk=entry.pk).status == status
    refused(
        lambda: act[then](entry=entry, user=SYSTEM),
        f"record entry {entry.pk}: already {status}",
    )
