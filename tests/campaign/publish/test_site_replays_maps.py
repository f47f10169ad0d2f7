"""The baked site's replays (campaign/publish/replays.py) and map per campaign turn
(campaign/publish/maps.py): the replay file is exactly what an anonymous visitor of the
app's replay gets; recorded battles have none; files are rebuilt only when what they show
changes; the map shows where public fleets stood when each turn closed."""

from __future__ import annotations

import datetime
import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from battles.models import Battle
from battles.play.context import battle_viewer, board_for
from battles.services import battle_resolve
from campaign.core.actors import SYSTEM
from campaign.publish import site_build
from campaign.publish.replays import public_viewer
from campaign.turns.models import CampaignTurn
from factions.access import visible_fleets
from factions.models import Fleet, Territory
from tests.battles.battle_fixtures import draft_skirmish
from tests.battles.reports.report_fixtures import make_battle
from tests.campaign.publish.test_publish import links_of

pytestmark = pytest.mark.django_db


def _build(out, **kwargs):
    return site_build(out_dir=out, pdfs=False, search_index=False, **kwargs)


@pytest.fixture
def fought(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = draft_skirmish(cast.campaign)
    battle_resolve(user=SYSTEM, battle=battle, seed=11, max_turns=6)
    Fleet.objects.filter(slug="phalon-skirmish").update(hidden=True)
    return Battle.objects.get(pk=battle.pk)


def test_the_replay_file_is_the_anonymous_replay_of_the_app(fought, tmp_path):
    out = tmp_path / "site"
    _build(out)
    hidden = {
        f"ship-{p.ship_id}"
        for p in fought.sides.get(faction__slug="phalon").participants.exclude(ship=None)
    }
    api = Client().get(f"/api/battles/{fought.pk}/board", HTTP_ACCEPT_LANGUAGE="en")
    assert api.status_code == 200
    for lang in ("fr", "en"):
        data = json.loads((out / lang / "replays" / "test-league" / "skirmish.json").read_text())
        with translation.override(lang):
            expected = board_for(fought, battle_viewer(fought, None))
        assert data["board"] == expected
        assert len(data["phases"]) == 12
        ids = {m["id"].split(".")[0] for frame in data["board"]["frames"] for m in frame}
        assert ids and not ids & hidden  # the hidden fleet's ships are never drawn…
        text = json.dumps(data)
        assert not any(f'"{ship}"' in text for ship in hidden)  # …nor named by id
    assert (
        api.json()
        == json.loads((out / "en" / "replays" / "test-league" / "skirmish.json").read_text())[
            "board"
        ]
    )
    assert data["phases"][0] == "set-up"
    fr = json.loads((out / "fr" / "replays" / "test-league" / "skirmish.json").read_text())
    assert (
        fr["phases"][0] == "mise en place"
        and fr["board"]["log"][0]["text"] != (data["board"]["log"][0]["text"])
    )


def test_the_public_viewer_is_the_access_helpers(fought):
    battle = Battle.objects.prefetch_related("sides__participants__ship").get(pk=fought.pk)
    public = set(visible_fleets(None).values_list("pk", flat=True))
    assert public_viewer(battle, public) == battle_viewer(fought, None)
    assert public_viewer(battle, public).hidden  # the Phalon fleet is hidden


def test_the_battle_page_loads_its_replay_and_a_recorded_battle_says_it_has_none(fought, tmp_path):
    recorded = make_battle(fought.campaign)
    out = tmp_path / "site"
    _build(out)
    page = out / "fr" / "battles" / "test-league" / "skirmish.html"
    html = page.read_text()
    assert 'data-board-src="../../replays/test-league/skirmish.json"' in html
    assert (page.parent / "../../replays/test-league/skirmish.json").resolve().is_file()
    assert "static/js/battle-board.js" in html and "<script>" not in html
    other = (out / "en" / "battles" / "test-league" / f"{recorded.slug}.html").read_text()
    assert "data-board-src" not in other and "battle-board.js" not in other
    assert "Recorded from the table: this battle has no replay." in other
    assert not (out / "en" / "replays" / "test-league" / f"{recorded.slug}.json").exists()


def test_a_replay_is_rewritten_only_when_what_it_shows_changes(fought, tmp_path):
    out = tmp_path / "site"
    _build(out)
    replay = "en/replays/test-league/skirmish.json"
    assert _build(out).written == []
    Fleet.objects.filter(slug="phalon-skirmish").update(hidden=False)  # revealed
    result = _build(out)
    assert replay in result.written and "fr/battles/test-league/skirmish.html" in result.written
    assert "Tsaara 1" in (out / replay).read_text()


def test_event_queries_stay_flat_as_resolved_battles_grow(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"

    def event_queries(out) -> int:
        with CaptureQueriesContext(connection) as ctx:
            _build(out)
        # The replays' own reads (the reports read their battle's log one by one, apart).
        return sum(
            'FROM "battles_event"' in q["sql"] and '"battle_id" IN (' in q["sql"]
            for q in ctx.captured_queries
        )

    battle_resolve(
        user=SYSTEM, battle=draft_skirmish(cast.campaign, slug="one"), seed=3, max_turns=3
    )
    one = event_queries(tmp_path / "one")
    for slug in ("two", "three"):
        battle_resolve(
            user=SYSTEM, battle=draft_skirmish(cast.campaign, slug=slug), seed=3, max_turns=3
        )
    # the page keys' log sizes (campaign.publish.rows), the replays' marks, then one per
    # language: the same for one battle or three
    assert event_queries(tmp_path / "three") == one == 4
    assert len(list((tmp_path / "three" / "fr" / "replays" / "test-league").glob("*.json"))) == 3


def test_the_map_shows_each_turn_as_it_stood_when_it_closed(fought, tmp_path):
    campaign = fought.campaign
    qatzrin = Fleet.objects.get(slug="qatzrin-skirmish")
    prime = Territory.objects.create(
        faction=cast_faction(campaign, "qatzrin"), name="Prime", slug="prime"
    )
    far = Territory.objects.create(
        faction=cast_faction(campaign, "qatzrin"), name="Far Reach", slug="far"
    )
    qatzrin.territory = prime
    qatzrin.save()  # history: at Prime
    closed = timezone.now()
    CampaignTurn.objects.create(campaign=campaign, number=1, status="closed", closed_at=closed)
    Fleet.history.filter(id=qatzrin.pk).update(history_date=closed - datetime.timedelta(hours=1))
    qatzrin.territory = far
    qatzrin.save()  # moved after turn 1 closed: at Far Reach now
    Fleet.objects.create(faction=qatzrin.faction, name="Newcomers", slug="newcomers")
    Fleet.history.filter(slug="newcomers").update(history_date=closed + datetime.timedelta(1))
    fought.territory = far
    fought.save()
    campaign.current_turn = 2
    campaign.save()
    make_battle(campaign, campaign_turn=3, name="Later", slug="later")
    out = tmp_path / "site"
    _build(out)

    turn1 = (out / "en" / "maps" / "test-league" / "turn-1.html").read_text()
    row = turn1.split("Prime")[1].split("</tr>")[0]
    assert "qatzrin skirmish" in row  # where it stood at the close
    assert "qatzrin skirmish" not in turn1.split("Far Reach")[1].split("</tr>")[0]
    assert "Newcomers" not in turn1  # did not exist yet
    assert "phalon skirmish" not in turn1  # hidden now
    assert "Closed on" in turn1
    turn2 = (out / "en" / "maps" / "test-league" / "turn-2.html").read_text()  # its battle
    assert "In progress" in turn2 and "Newcomers" in turn2
    far_row = turn2.split("Far Reach")[1].split("</tr>")[0]
    assert "qatzrin skirmish" in far_row and "skirmish.html" in far_row  # fleet and battle
    index = (out / "fr" / "maps" / "test-league" / "index.html").read_text()
    assert "turn-1.html" in index and "turn-2.html" in index
    battle_page = out / "en" / "battles" / "test-league" / "skirmish.html"
    assert "../../maps/test-league/turn-2.html" in links_of(battle_page)
    assert "maps/test-league/index.html" in links_of(out / "en" / "index.html")
    assert "../maps/test-league/index.html" in links_of(
        out / "en" / "campaigns" / "test-league.html"
    )
    assert [p for p in _build(out).written if "/maps/" in p] == []  # keyed pages
    make_battle(campaign, campaign_turn=1, name="Belt clash", slug="belt")  # same fleets
    written = {p for p in _build(out).written if "/maps/" in p}
    assert written == {
        f"{lang}/maps/test-league/{page}.html"
        for lang in ("fr", "en")
        for page in ("turn-1", "index")  # its turn, and the index's count of battles
    }
    for page in (out / "en" / "maps").rglob("*.html"):
        for link in links_of(page):
            if not link.startswith(("http", "#")):
                assert (page.parent / link.split("#")[0]).resolve().is_file(), (page, link)


def test_a_fleet_hidden_when_the_turn_closed_is_not_shown_for_that_turn(fought, tmp_path):
    campaign = fought.campaign
    fleet = Fleet.objects.get(slug="qatzrin-skirmish")
    fleet.territory = Territory.objects.create(
        faction=cast_faction(campaign, "qatzrin"), name="Prime", slug="prime"
    )
    fleet.hidden = True
    fleet.save()
    closed = timezone.now()
    Fleet.history.filter(id=fleet.pk).update(history_date=closed - datetime.timedelta(hours=1))
    CampaignTurn.objects.create(campaign=campaign, number=1, status="closed", closed_at=closed)
    fleet.hidden = False
    fleet.save()  # revealed later
    out = tmp_path / "site"
    _build(out)
    assert (
        "qatzrin skirmish" not in (out / "en" / "maps" / "test-league" / "turn-1.html").read_text()
    )
    assert (out / "en" / "fleets" / "qatzrin-skirmish.html").is_file()  # public now


def test_a_campaign_without_turns_or_battles_gets_no_map(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    out = tmp_path / "site"
    _build(out)
    assert not (out / "en" / "maps").exists()
    assert "maps/" not in (out / "en" / "index.html").read_text()


def cast_faction(campaign, slug):
    return campaign.factions.get(slug=slug)
