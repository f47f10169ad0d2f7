"""The board and log as each viewer sees them (battles/play/board.py, rules §5), the odds
panel's choices, and the turn page's query count as the battle grows."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from battles.play.board import Viewer, board_view
from battles.play.contacts import ContactKeys
from battles.play.context import odds_panel
from battles.play.game_turns import turn_play_advance, turn_play_start
from battles.services import battle_resolve, event_rows
from campaign.core.actors import SYSTEM
from campaign.league.models import Intel, Membership
from factions.models import Faction, ShipClass
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = pytest.mark.django_db

NAMES = {"qatzrin": "Qatzrin", "phalon": "Phalon"}


@pytest.fixture
def fought(cast):
    battle = draft_skirmish(cast.campaign)
    battle_resolve(user=SYSTEM, battle=battle, seed=11, max_turns=6)
    rows = event_rows(battle=battle)
    ships = rows[0]["data"]["ships"]
    return rows, ships


def contacts_of(rows, side):
    """For each moment key (turn, phase): the enemy ids the side holds on sensors after it."""
    held, out = set(), {}
    for row in rows:
        data = row["data"]
        if row["kind"] == "contact" and data["side"] == side:
            held.add(data["ship"])
        elif row["kind"] == "contact-lost" and data["side"] == side:
            held.discard(data["ship"])
        out[(row["game_turn"], row["phase"])] = set(held)
    return out


def test_a_side_sees_blips_beyond_its_sensors_and_no_enemy_name(fought):
    rows, ships = fought
    board = board_view(rows, Viewer("side", "qatzrin"), side_names=NAMES)
    held = contacts_of(rows, "qatzrin")
    keys = ContactKeys.from_setup(None, "qatzrin", rows[0]["data"])
    enemy_names = {s["name"] for s in ships.values() if s["side"] == "phalon"}
    enemy_classes = {s["class"] for s in ships.values() if s["side"] == "phalon"}
    seen_blip = seen_contact = False
    for moment, frame in zip(board["moments"], board["frames"], strict=True):
        in_contact = {keys.opaque(sid) for sid in held[(moment["turn"], moment["phase"])]}
        for marker in frame:
            if marker["side"] == "phalon" and not marker["id"].count("."):
                if marker["id"] in in_contact:
                    seen_contact = True
                    assert marker["kind"] == "ship" and marker["h"] is not None
                    assert marker["label"].startswith("classe inconnue") or marker[
                        "label"
                    ].startswith("unknown class")  # no class met before (§5)
                else:
                    seen_blip = True
                    assert marker["kind"] == "blip" and marker["h"] is None
                    assert set(marker["label"]) == {"◆"}
            elif marker["side"] == "qatzrin":
                assert (
                    marker["label"] in {s["name"] for s in ships.values()}
                    or marker["kind"] == "unit"
                )
    assert seen_blip and seen_contact
    text = " ".join(line["text"] for line in board["log"])
    for word in enemy_names | enemy_classes:
        assert word not in text
    assert '"setup"' not in str(board["log"]) and "seed" not in text


def test_a_class_already_met_is_named_on_contact(cast):
    battle = draft_skirmish(cast.campaign, slug="met")
    tsaara = ShipClass.objects.get(name="Tsaara")
    Intel.objects.create(
        campaign=cast.campaign, faction=Faction.objects.get(slug="qatzrin"), ship_class=tsaara
    )
    battle_resolve(user=SYSTEM, battle=battle, seed=11, max_turns=6)
    board = board_view(event_rows(battle=battle), Viewer("side", "qatzrin"), side_names=NAMES)
    labels = {m["label"] for frame in board["frames"] for m in frame if m["side"] == "phalon"}
    assert any(label.startswith("Tsaara (") for label in labels)
    assert "Huulth" not in " ".join(labels)  # never met: not named


def test_the_organiser_sees_everything_and_the_public_no_hidden_ship(fought):
    rows, ships = fought
    everything = board_view(rows, Viewer("all"), side_names=NAMES)
    assert len(everything["log"]) == len(rows)  # every row, set-up included
    hidden = next(sid for sid, s in ships.items() if s["side"] == "phalon")
    public = board_view(rows, Viewer("public", hidden=frozenset({hidden})), side_names=NAMES)
    assert all(m["id"].split(".")[0] != hidden for f in public["frames"] for m in f)
    assert ships[hidden]["name"] not in " ".join(line["text"] for line in public["log"])
    assert all(hidden not in pair for fire in public["fire"] for pair in fire)
    fire_lines = sum(len(f) for f in everything["fire"])
    assert fire_lines == sum(
        1
        for r in rows
        if r["kind"] in ("fire", "point-defence", "attack", "missile-strike", "dogfight")
    )


def test_the_odds_panel_offers_our_weapons_and_their_ships(cast, django_user_model):
    battle = draft_skirmish(cast.campaign, qatzrin=("Sa'ar",), phalon=("Tsaara",), slug="odds")
    player = django_user_model.objects.create_user("p", password="pw")
    Membership.objects.create(
        campaign=cast.campaign,
        user=player,
        role=Membership.Role.PLAYER,
        faction=Faction.objects.get(slug="phalon"),
    )
    mine = odds_panel(battle, player)
    assert {w["ship"] for w in mine["weapons"]} == {
        f"ship-{p.ship_id}"
        for p in battle.sides.get(faction__slug="phalon").participants.all()
        if p.ship_id
    }
    assert all("Tsaara" in w["label"] for w in mine["weapons"])
    assert [t["label"] for t in mine["targets"]] == [mine["targets"][0]["id"]]  # not named
    assert odds_panel(battle, cast.chronicler) is None
    assert len(odds_panel(battle, cast.organiser)["targets"]) == 2


def turn_page_queries(cast, size: int) -> int:
    battle = draft_skirmish(
        cast.campaign, qatzrin=("Sa'ar",) * size, phalon=("Tsaara",) * size, slug=f"q{size}"
    )
    turn_play_start(user=SYSTEM, battle=battle, seed=3, max_turns=5)
    turn_play_advance(user=SYSTEM, battle=battle, force=True)
    client = Client()
    client.force_login(cast.qatzrin_player)
    client.get(f"/battles/{battle.pk}/turns/")  # warm up (session, content types)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/battles/{battle.pk}/turns/").status_code == 200
    return len(queries)


def test_the_turn_page_costs_the_same_queries_for_2_and_24_ships(cast):
    assert turn_page_queries(cast, 1) == turn_page_queries(cast, 12)


def test_auto_tactics_are_logged_as_such_for_both_sides(cast):
    from django.utils import translation

    battle = draft_skirmish(cast.campaign, qatzrin=("Sa'ar",), phalon=("Tsaara",), slug="auto")
    turn_play_start(user=SYSTEM, battle=battle, seed=5, max_turns=4)
    turn_play_advance(user=SYSTEM, battle=battle, force=True)
    rows = event_rows(battle=battle)
    with translation.override("fr"):
        board = board_view(rows, Viewer("side", "phalon"), side_names=NAMES)
    lines = [line["text"] for line in board["log"] if line["kind"] == "auto-orders"]
    assert lines == [
        "Qatzrin n’a pas donné d’ordres à temps\u202f: "
        "ses vaisseaux suivent les tactiques automatiques",
        "Phalon n’a pas donné d’ordres à temps\u202f: "
        "ses vaisseaux suivent les tactiques automatiques",
    ]


def test_a_concluded_battles_odds_panel_names_the_enemy_as_the_report_does(cast):
    """After the battle the panel once still offered "contact-1" while the
    report named the ship; a hidden fleet's ship stays unnamed."""
    battle = draft_skirmish(cast.campaign, qatzrin=("Sa'ar",), phalon=("Tsaara",), slug="done")
    battle_resolve(user=SYSTEM, battle=battle, seed=11, max_turns=2)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONCLUDED
    panel = odds_panel(battle, cast.qatzrin_player)
    assert [t["label"] for t in panel["targets"]] == ["Tsaara 1"]  # as the board names it
    assert panel["targets"][0]["id"].startswith("contact-")
    page = Client()
    page.force_login(cast.qatzrin_player)
    html = page.get(f"/battles/{battle.pk}/").content.decode()
    assert ">Tsaara 1</option>" in html and ">contact-" not in html
    enemy_fleet = battle.sides.get(faction__slug="phalon").fleet
    enemy_fleet.hidden = True
    enemy_fleet.save()
    hidden = odds_panel(battle, cast.qatzrin_player)["targets"]
    assert "Tsaara" not in [t["label"] for t in hidden]
