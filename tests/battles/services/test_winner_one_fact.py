"""Who won is stored once (``Battle.winner``): a side's ``is_winner`` is read from it, a
record entry names the side it says won, confirmed entries never name two different
winners, and a snapshot of the old form (sides with a winner flag) still reopens."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle, BattleSide, BattleSnapshot, RecordEntry
from battles.services import (
    BattleActionError,
    battle_record,
    battle_reopen,
    record_confirm,
    record_submit,
)
from campaign.core.actors import SYSTEM
from campaign.league.models import Membership
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def table():
    """A draft Ra'am against Huulth skirmish, a player per side."""
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    users = get_user_model().objects
    q_side = battle.sides.get(faction__slug="qatzrin")
    p_side = battle.sides.get(faction__slug="phalon")
    players = []
    for side, name in ((q_side, "q"), (p_side, "p")):
        user = users.create(username=name)
        Membership.objects.create(
            user=user, campaign=battle.campaign, role="player", faction=side.faction
        )
        players.append(user)
    return battle, q_side, p_side, *players


def test_an_entry_names_the_side_it_says_won(table):
    battle, q_side, p_side, q_player, _p = table
    entry = record_submit(battle=battle, side=q_side, user=q_player, winner="phalon", results=[])
    entry.refresh_from_db()
    assert (entry.winner, entry.winner.faction.slug) == (p_side, "phalon")
    draw = record_submit(battle=battle, side=q_side, user=q_player, results=[])
    assert RecordEntry.objects.get(pk=draw.pk).winner is None


def test_entries_naming_different_winners_are_refused_and_nothing_changes(table):
    battle, q_side, p_side, q_player, p_player = table
    mine = record_submit(battle=battle, side=q_side, user=q_player, winner="qatzrin", results=[])
    record_confirm(entry=mine, user=p_player)
    theirs = record_submit(battle=battle, side=p_side, user=p_player, winner="phalon", results=[])
    with pytest.raises(BattleActionError) as refused:
        record_confirm(entry=theirs, user=q_player)
    assert str(refused.value) == (
        f"winner: entry {theirs.pk} for Phalon names Phalon, but the confirmed entry"
        f" {mine.pk} for Qatzrin names Qatzrin; reject one of them"
    )
    theirs.refresh_from_db()
    battle.refresh_from_db()
    assert (theirs.status, battle.status, battle.winner_id) == ("submitted", "draft", None)
    # The side takes it back and agrees: the battle concludes with the one winner named.
    agreed = record_submit(battle=battle, side=p_side, user=p_player, winner="qatzrin", results=[])
    record_confirm(entry=agreed, user=q_player)
    battle.refresh_from_db()
    assert (battle.status, battle.winner.slug) == ("concluded", "qatzrin")


def test_an_entry_naming_no_winner_leaves_it_to_the_other(table):
    battle, q_side, p_side, q_player, p_player = table
    mine = record_submit(battle=battle, side=q_side, user=q_player, winner="phalon", results=[])
    record_confirm(entry=mine, user=p_player)
    # Confirmed last but naming no one: the earlier claim stands (before, the last entry's
    # winner field, empty or not, decided).
    theirs = record_submit(battle=battle, side=p_side, user=p_player, results=[])
    record_confirm(entry=theirs, user=q_player)
    battle.refresh_from_db()
    assert (battle.status, battle.winner.slug) == ("concluded", "phalon")


def test_a_sides_winner_is_read_from_the_battle_alone(table):
    battle, q_side, p_side, _q, _p = table
    battle_record(user=SYSTEM, battle=battle, results=[], outcome="Phalon hold.", winner="phalon")
    sides = {s.faction.slug: s.is_winner for s in BattleSide.objects.select_related("battle")}
    assert sides == {"qatzrin": False, "phalon": True}
    Battle.objects.filter(pk=battle.pk).update(winner=q_side.faction)
    sides = {s.faction.slug: s.is_winner for s in BattleSide.objects.select_related("battle")}
    assert sides == {"qatzrin": True, "phalon": False}
    assert "is_winner" not in {f.name for f in BattleSide._meta.get_fields()}


def test_a_snapshot_with_the_old_side_flags_reopens_to_its_winner(table):
    battle, q_side, p_side, _q, _p = table
    battle_record(user=SYSTEM, battle=battle, results=[], outcome="Phalon hold.", winner="phalon")
    snap = BattleSnapshot.objects.get(battle=battle)
    assert "sides" not in snap.data  # no second copy of the winner is written
    # A snapshot written while sides kept a flag, with the winner on the flag only.
    snap.data["sides"] = {str(q_side.pk): True, str(p_side.pk): False}
    snap.save()
    battle_reopen(user=SYSTEM, battle=battle)
    battle.refresh_from_db()
    assert (battle.status, battle.winner_id) == ("draft", q_side.faction_id)


def test_the_api_reads_each_sides_winner_from_the_battle(table, client):
    battle, q_side, _p_side, _q, _p = table
    battle_record(user=SYSTEM, battle=battle, results=[], outcome="Phalon hold.", winner="phalon")
    Battle.objects.filter(pk=battle.pk).update(winner=q_side.faction)
    for url in (f"/api/battles/{battle.pk}", "/api/battles"):
        body = client.get(url).json()
        shown = body if isinstance(body, dict) else next(b for b in body if b["id"] == battle.pk)
        assert shown["winner"] == "qatzrin"
        assert [(s["faction"], s["is_winner"]) for s in shown["sides"]] == [
            ("qatzrin", True),
            ("phalon", False),
        ]
