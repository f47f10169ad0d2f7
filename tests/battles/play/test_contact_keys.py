"""A side knows the enemy's units by opaque keys only (battles/play/contacts.py): the
turn page, its orders form, the board API and the odds panel never carry an enemy
ship's engine id (``ship-<pk>``, whose page names the ship); orders naming a key are
translated back, an enemy's engine id is refused as unknown; a crafted form naming a
ship that is not the player's stores nothing, as the API."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import translation

from battles.models import Participant
from battles.models.turn_orders import TurnOrders
from battles.play.board import Viewer, board_view
from battles.play.contacts import ContactKeys
from battles.play.game_turns import TurnOrdersError, turn_play_start
from battles.services import battle_resolve, event_rows
from campaign.core.actors import SYSTEM
from tests.battles.battle_fixtures import SEED, draft_skirmish

pytestmark = pytest.mark.django_db

ENGINE_ID = re.compile(r"(?<![\w-])(?:ship|lu)-\d+")


def ids_of(battle, slug: str) -> set[str]:
    return {
        f"ship-{p.ship_id}"
        for p in Participant.objects.filter(
            side__battle=battle, side__faction__slug=slug, ship__isnull=False
        )
    }


@pytest.fixture
def started(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    duel.q, duel.p = ids_of(duel.battle, "qatzrin"), ids_of(duel.battle, "phalon")
    duel.rival = Client()
    duel.rival.force_login(duel.phalon_player)  # plays Phalon: Qatzrin is the enemy
    duel.own = Client()
    duel.own.force_login(duel.cast.qatzrin_player)
    return duel


def test_the_keys_are_stable_per_battle_and_side_and_hide_the_pk_order():
    setup = {"ships": {f"ship-{n}": {"side": "b", "name": f"S{n}"} for n in range(1, 9)}}
    setup["ships"]["ship-99"] = {"side": "a", "name": "Ours"}
    keys = ContactKeys.from_setup(7, "a", setup)
    again = ContactKeys.from_setup(7, "a", setup)
    out = {sid: keys.opaque(sid) for sid in setup["ships"]}
    assert out == {sid: again.opaque(sid) for sid in setup["ships"]}
    assert out["ship-99"] == "ship-99"  # our own ship keeps its id
    assert sorted(out[f"ship-{n}"] for n in range(1, 9)) == [f"contact-{n}" for n in range(1, 9)]
    other_battle = ContactKeys.from_setup(8, "a", setup)
    assert [other_battle.opaque(f"ship-{n}") for n in range(1, 9)] != [
        out[f"ship-{n}"] for n in range(1, 9)
    ]
    assert keys.opaque("ship-3.bay-1-2") == out["ship-3"] + ".bay-1-2"
    assert keys.real(out["ship-3"] + ".bay-1-2") == "ship-3.bay-1-2"
    with translation.override("en"), pytest.raises(TurnOrdersError, match="no contact of your"):
        keys.real("ship-3")
    assert keys.mask("S3 (ship-3) and Ours (ship-99)") == "? (?) and Ours (ship-99)"


def test_the_board_a_side_sees_carries_no_enemy_engine_id(cast):
    battle = draft_skirmish(cast.campaign)
    battle_resolve(user=SYSTEM, battle=battle, seed=11, max_turns=6)
    rows = event_rows(battle=battle)
    names = {"qatzrin": "Qatzrin", "phalon": "Phalon"}
    board = board_view(rows, Viewer("side", "qatzrin", battle=battle.pk), side_names=names)
    text = json.dumps(board, ensure_ascii=False)
    assert set(ENGINE_ID.findall(text)) <= ids_of(battle, "qatzrin")
    assert any(m["kind"] == "blip" for f in board["frames"] for m in f)
    enemy = {m["id"] for f in board["frames"] for m in f if m["side"] == "phalon"}
    assert enemy and all(k.startswith("contact-") for k in enemy)
    # Fire lines join markers drawn on the board (same keys).
    drawn = {m["id"] for f in board["frames"] for m in f}
    assert {ref.split(".")[0] for fire in board["fire"] for pair in fire for ref in pair} <= {
        ref.split(".")[0] for ref in drawn
    }
    # The public (the baked site's replay viewer): no id of a hidden ship anywhere.
    hidden = frozenset(ids_of(battle, "phalon"))
    public = json.dumps(board_view(rows, Viewer("public", hidden=hidden), side_names=names))
    assert not set(ENGINE_ID.findall(public)) & hidden


def test_the_turn_page_and_api_give_the_rival_keys_not_ship_ids(started):
    page = started.rival.get(f"/battles/{started.battle.pk}/turns/").content.decode()
    board = started.rival.get(f"/api/battles/{started.battle.pk}/board").content.decode()
    for text in (page, board):
        assert not set(ENGINE_ID.findall(text)) & started.q
    options = set(re.findall(r'<option value="(contact-\d+)"', page))
    assert options == {f"contact-{n}" for n in range(1, len(started.q) + 1)}
    # The organiser sees engine ids.
    organiser = Client()
    organiser.force_login(started.cast.organiser)
    assert started.q <= set(
        ENGINE_ID.findall(organiser.get(f"/api/battles/{started.battle.pk}/board").content.decode())
    )


def _fire(started, target: str):
    ship = sorted(started.p)[0]
    return {ship: {"movement": "", "fire": [{"system": "pulser-a", "target": target}]}}


def test_orders_naming_a_key_reach_the_enemy_ship_and_its_id_is_refused(started):
    url = f"/api/battles/{started.battle.pk}/turns/orders"
    refused = started.rival.put(
        url,
        {"orders": _fire(started, sorted(started.q)[0])},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert refused.status_code == 400
    assert "no contact of your side is known by this name" in refused.json()["detail"]
    assert not TurnOrders.objects.filter(battle=started.battle).exists()
    keys = ContactKeys.from_setup(
        started.battle.pk, "phalon", started.battle.events.get(kind="setup").data
    )
    target = sorted(started.q)[0]
    sent = _fire(started, keys.opaque(target))
    sent[sorted(started.p)[0]]["fire"][0]["mode"] = "pulser-long"
    answer = started.rival.put(url, {"orders": sent}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    stored = TurnOrders.objects.get(battle=started.battle, side=started.phalon_side)
    assert stored.orders[sorted(started.p)[0]]["fire"][0]["target"] == target
    # The player is shown the key again, never the id.
    shown = answer.json()["own_orders"][sorted(started.p)[0]]["fire"][0]["target"]
    assert shown == keys.opaque(target)


def test_a_form_naming_the_enemys_ship_stores_nothing_and_says_why(started):
    enemy = sorted(started.q)[0]
    response = started.rival.post(
        f"/battles/{started.battle.pk}/turns/orders/", {f"movement-{enemy}": "+1"}
    )
    assert response.status_code == 400
    page = response.content.decode()
    # French by default.
    assert "pas un vaisseau de votre camp dans cette bataille\u202f; rien n’a été" in page
    assert not TurnOrders.objects.filter(battle=started.battle).exists()
    # The refusal names neither the ship nor its class.
    error = re.search(r'class="form-error"[^>]*>([^<]*)<', page).group(1)
    assert "Sa&#x27;ar" not in error and "Sa'ar" not in error


def test_the_api_refusing_the_enemys_ship_does_not_name_it(started):
    enemy = sorted(started.q)[0]
    answer = started.rival.put(
        f"/api/battles/{started.battle.pk}/turns/orders",
        {"orders": {enemy: {"movement": "+1"}}},
        content_type="application/json",
    )
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    assert "pas un vaisseau de votre camp" in detail and "Sa'ar" not in detail


def test_orders_for_any_id_not_of_the_side_get_one_answer_on_the_api_and_the_page(started):
    """No oracle: an enemy ship, visible or hidden, a ship of another battle and an id of no
    ship at all are refused in the same words (the id as sent, nothing else), and nothing
    is stored."""
    from factions.models import Ship

    visible, hidden = sorted(started.q)
    elsewhere = draft_skirmish(
        started.cast.campaign, qatzrin=("Ra'am",), phalon=("Silith",), slug="elsewhere"
    )
    other = f"ship-{Participant.objects.filter(side__battle=elsewhere).first().ship_id}"
    assert other not in started.q | started.p
    missing = f"ship-{Ship.objects.order_by('-pk').first().pk + 1000}"
    url = f"/api/battles/{started.battle.pk}/turns/orders"

    def answers(ref: str) -> tuple[str, str]:
        api = started.rival.put(
            url,
            {"orders": {ref: {"movement": "+1"}}},
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert api.status_code == 400
        form = started.rival.post(
            f"/battles/{started.battle.pk}/turns/orders/",
            {f"movement-{ref}": "+1"},
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert form.status_code == 400
        error = re.search(r'class="form-error"[^>]*>([^<]*)<', form.content.decode()).group(1)
        return api.json()["detail"].replace(ref, "<id>"), error.replace(ref, "<id>")

    first = answers(visible)
    enemy_fleet = started.battle.sides.get(faction__slug="qatzrin").fleet
    enemy_fleet.hidden = True
    enemy_fleet.save()
    assert [answers(ref) for ref in (hidden, other, missing)] == [first] * 3
    assert first[0] == "'<id>': not a ship of your side in this battle; nothing stored"
    assert first[1] == "&#x27;<id>&#x27;: not a ship of your side in this battle; nothing stored"
    assert not TurnOrders.objects.filter(battle=started.battle).exists()


def test_a_target_named_by_any_id_not_a_contact_gets_one_answer(started):
    """Fire at an enemy's engine id (visible or hidden), another battle's ship or an id of
    no ship: the same words (the id as sent), where the engine told an unknown id apart."""
    from factions.models import Ship

    visible, hidden = sorted(started.q)
    elsewhere = draft_skirmish(
        started.cast.campaign, qatzrin=("Ra'am",), phalon=("Silith",), slug="elsewhere"
    )
    other = f"ship-{Participant.objects.filter(side__battle=elsewhere).first().ship_id}"
    missing = f"ship-{Ship.objects.order_by('-pk').first().pk + 1000}"
    url = f"/api/battles/{started.battle.pk}/turns/orders"

    def answer(ref: str) -> str:
        r = started.rival.put(
            url,
            {"orders": _fire(started, ref)},
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert r.status_code == 400
        return r.json()["detail"].replace(ref, "<id>")

    first = answer(visible)
    enemy_fleet = started.battle.sides.get(faction__slug="qatzrin").fleet
    enemy_fleet.hidden = True
    enemy_fleet.save()
    assert [answer(ref) for ref in (hidden, other, missing, missing + ".bay-1")] == [first] * 4
    assert first == "'<id>': no contact of your side is known by this name; nothing stored"
    assert not TurnOrders.objects.filter(battle=started.battle).exists()
