"""Fog of war in the log (rules §5): what an enemy seen only as a blip
does to a side is told without its systems, weapons or dice, and an enemy's refused fire
not at all, on the turn page and in the board API, for both sides; the organiser still
reads every line."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from battles.models import Event, Participant
from battles.play.game_turns import turn_orders_submit, turn_play_start
from campaign.core.actors import SYSTEM
from tests.battles.battle_fixtures import SEED

pytestmark = pytest.mark.django_db


def ships_of(battle, slug):
    return [
        f"ship-{p.ship_id}"
        for p in Participant.objects.filter(
            side__battle=battle, side__faction__slug=slug, ship__isnull=False
        ).order_by("pk")
    ]


def all_guns(spec, target):
    """Fire orders for every weapon of a ship (a set-up row's spec) at ``target``."""
    return [
        {"system": s["id"], "target": target}
        | ({"mode": "pulser-long"} if s["weapon"] == "pulser" else {})
        for s in spec["design"]["systems"]
        if s.get("kind") == "weapon"
    ]


@pytest.fixture
def fired(duel):
    """Two turns: both sides close in at speed 6 and fire every gun at the other's first
    ship each turn: turn 1 at 56 mu (all refused, out of range and out of contact), turn 2
    at 32 mu (Tsaara's long pulsers reach beyond the Qatzrin sensors' 24 mu, so Qatzrin
    is shot at by a blip; the Qatzrin beams are refused)."""
    battle = duel.battle
    turn_play_start(user=SYSTEM, battle=battle, seed=SEED, max_turns=5)
    q, p = ships_of(battle, "qatzrin"), ships_of(battle, "phalon")
    specs = Event.objects.get(battle=battle, kind="setup").data["ships"]
    for turn in (1, 2):
        for side, ours, theirs, speed_up in (
            (duel.qatzrin_side, q, p, "+2"),
            (duel.phalon_side, p, q, "+4"),
        ):
            move = speed_up if turn == 2 else ""
            orders = {s: {"movement": move, "fire": all_guns(specs[s], theirs[0])} for s in ours}
            turn_orders_submit(user=SYSTEM, battle=battle, side=side, orders=orders)
    duel.specs, duel.q, duel.p = specs, q, p
    return duel


def seen_by(user, battle):
    """The turn page's text and the board API's log for ``user``."""
    client = Client()
    client.force_login(user)
    page = client.get(f"/battles/{battle.pk}/turns/")
    api = client.get(f"/api/battles/{battle.pk}/board")
    assert page.status_code == api.status_code == 200
    return page.content.decode(), api.json()["log"]


def test_a_blips_shots_are_told_without_its_weapons_and_its_refusals_not_at_all(fired):
    battle = fired.battle
    for user, enemy_words, ours in (
        (fired.cast.qatzrin_player, ("pulser", "pbl-", "plasma-bolt"), ("Sa'ar 1", "Ra'am 1")),
        (fired.phalon_player, ("beam",), ("Tsaara 1",)),
    ):
        page, log = seen_by(user, battle)
        for word in enemy_words:
            assert word not in page
            assert not [line for line in log if word in line["text"]]
        kinds = [line["kind"] for line in log]
        assert "fire-refused" in kinds  # the side's own refused shots are still told
        refused = [line["text"] for line in log if line["kind"] == "fire-refused"]
        assert all(text.startswith(ours) for text in refused)
    # Qatzrin learns it was shot three times by a blip (no weapon), and what it cost.
    _page, log = seen_by(fired.cast.qatzrin_player, battle)
    shots = [line["text"] for line in log if line["kind"] == "fire"]
    blip = shots[0].split(" tire ")[0]
    assert blip.startswith("écho ")
    assert sorted(shots) == [
        f"{blip} tire sur Sa'ar 1, à 34,2 mu\u202f: {result}"
        for result in ("3 dégâts", "3 dégâts", "sans effet")
    ]
    assert {"damage-hull", "damage-destroyed"} <= {line["kind"] for line in log}
    # No die of the blip's shots (their purposes name its weapons).
    assert not [line for line in log if line["kind"] == "roll" and "pulser" in line["text"]]


def test_the_organiser_still_reads_every_weapon(fired):
    client = Client()
    client.force_login(fired.cast.organiser)
    text = json.dumps(client.get(f"/api/battles/{fired.battle.pk}/board").json()["log"])
    assert "pulser-b (pulser-long)" in text and "beam-c" in text
