"""A site baked from a campaign full of secrets shows none of them, in any rendering (HTML
pages, PDFs, the search index, the feed, the sitemap), and every user text carrying an XSS
payload stays inert."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from battles.models import Battle
from battles.reports import desk as chronicle
from battles.services import battle_resolve
from campaign.core.actors import SYSTEM
from campaign.publish import site_build
from campaign.turns.models import CampaignTurn
from factions.models import Commander, Faction, Fleet, Ship, ShipClass, Territory
from tests.battles.battle_fixtures import draft_skirmish
from tests.battles.reports.report_fixtures import make_battle
from tests.campaign.publish.test_publish import all_text, make_league

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # a whole site built and read

XSS = '<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">j</a>'
SECRETS = (
    "Hidden Lancer",  # a ship of a hidden fleet
    "Shadow Flotilla",  # the hidden fleet
    "shadow-flotilla",
    "Operation Nightfall",  # a draft battle
    "DRAFT-NARRATIVE-SECRET",  # an unpublished report's narrative
    "DRAFT-ANALYSIS-SECRET",  # and its side analysis
    "ORGANISER-NOTE-SECRET",  # a ship's notes
    "Veiled Armada",  # a hidden fleet that fought an engine-resolved battle…
    "Veiled Striker",  # …its ships, never in the replay's JSON nor the map per turn
    "Admiral Umbra",  # the hidden fleet's admiral
    "Captain Veil",  # a hidden ship's captain
)


@pytest.fixture(scope="module")
def secret_site(django_db_setup, django_db_blocker, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("secrets")
    out = tmp / "site"
    with (
        django_db_blocker.unblock(),
        override_settings(MEDIA_ROOT=tmp / "media"),
        transaction.atomic(),
    ):
        league = make_league()
        league.description = "League " + XSS
        league.save()
        published = make_battle(league, narrative="Public story " + XSS)
        published.sides.update(analysis="Side view " + XSS)
        phalon = Faction.objects.get(slug="phalon")
        phalon.description = "Phalon " + XSS
        phalon.save()
        Territory.objects.create(faction=phalon, name="Rock " + XSS, slug="rock")
        silith = ShipClass.objects.get(slug="silith")
        shadow = Fleet.objects.create(
            faction=phalon, name="Shadow Flotilla", slug="shadow-flotilla", hidden=True
        )
        lancer = Ship.objects.create(ship_class=silith, fleet=shadow, name="Hidden Lancer")
        Commander.objects.create(faction=phalon, name="Admiral Umbra", fleet=shadow)
        Commander.objects.create(faction=phalon, name="Captain Veil", ship=lancer)
        public = Fleet.objects.get(slug="test-reprisal")
        Commander.objects.create(faction=phalon, name="Admiral Loud " + XSS, fleet=public)
        public.description = "Fleet " + XSS
        public.save()
        Ship.objects.create(
            ship_class=silith, fleet=public, name="Loud " + XSS, notes="ORGANISER-NOTE-SECRET"
        )
        make_battle(league, status="draft", name="Operation Nightfall", slug="nightfall")
        unpublished = make_battle(
            league, name="Quiet clash", slug="quiet-clash", narrative="DRAFT-NARRATIVE-SECRET"
        )
        unpublished.sides.update(analysis="DRAFT-ANALYSIS-SECRET")
        unpublished.analysis = "DRAFT-ANALYSIS-SECRET"
        unpublished.save()
        chronicle.report_draft_write(battle=unpublished)
        skirmish = draft_skirmish(league, phalon=("Tsaara", "Huulth"))
        Fleet.objects.filter(slug="phalon-skirmish").update(name="Veiled Armada", hidden=True)
        for i, ship in enumerate(Ship.objects.filter(fleet__slug="phalon-skirmish"), 1):
            ship.name = f"Veiled Striker {i}"
            ship.save()
        battle_resolve(user=SYSTEM, battle=skirmish, seed=11, max_turns=6)
        assert skirmish.events.filter(kind="setup").exists()
        CampaignTurn.objects.create(
            campaign=league, number=2, status="closed", closed_at=timezone.now()
        )
        assert unpublished.report_state == Battle.ReportState.DRAFT
        site_build(out_dir=out)
        transaction.set_rollback(True)
    return out


def test_no_secret_reaches_any_file_of_the_site(secret_site):
    text = all_text(secret_site)
    assert "Quiet clash" in text  # the concluded battle itself is public…
    for secret in SECRETS:
        assert secret not in text, secret  # …its unpublished texts are not


def test_the_replay_and_the_map_were_checked(secret_site):
    replay = secret_site / "fr" / "replays" / "test-league" / "skirmish.json"
    assert "Sa'ar" in replay.read_text()  # the public side is there
    assert (secret_site / "en" / "maps" / "test-league" / "turn-2.html").is_file()


def test_the_search_index_and_feed_were_checked(secret_site):
    assert list((secret_site / "pagefind" / "fragment").glob("*.pf_fragment"))
    feed = (secret_site / "fr" / "feed.xml").read_text()
    assert "Colonisation compromise" in feed and "Quiet clash" not in feed  # unpublished


class _Elements(HTMLParser):
    """Every element and attribute a browser would build from a page."""

    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


def test_xss_payloads_are_inert_in_every_page_and_the_feed(secret_site):
    for page in list(secret_site.rglob("*.html")) + list(secret_site.rglob("*.xml")):
        raw = page.read_text()
        assert "<script>alert" not in raw, page
        parser = _Elements()
        parser.feed(raw)
        for tag, attrs in parser.found:
            assert not [name for name in attrs if name.startswith("on")], (page, tag, attrs)
            for name in ("href", "src"):
                value = (attrs.get(name) or "").strip().lower()
                assert not value.startswith(("javascript:", "data:")), (page, tag, attrs)
            assert tag != "script" or attrs.get("src"), (page, "inline script")
    story = secret_site / "en" / "battles" / "test-league" / "colonisation-compromise.html"
    assert "Public story" in story.read_text()


def test_the_faction_page_lists_its_public_commanders_only(secret_site):
    page = (secret_site / "en" / "factions" / "phalon.html").read_text()
    assert "Admiral Loud &lt;script&gt;" in page
    assert "Admiral Umbra" not in page and "Captain Veil" not in page
