"""The baked site: relative links that all resolve, no hidden fleet, inert Markdown."""

from __future__ import annotations

import io
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.test import override_settings
from pypdf import PdfReader

from campaign.models import Campaign
from campaign.publish import SiteBuildError, site_build
from factions.models import Faction, Fleet, Ship, ShipClass
from tests.battles.report_fixtures import HOSTILE_MARKDOWN, make_battle


class LinkCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)


def links_of(page: Path) -> list[str]:
    parser = LinkCollector()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.links


def all_text(out: Path) -> str:
    """Every baked file as text, PDFs by their extracted text."""
    chunks = []
    for path in out.rglob("*"):
        if path.suffix == ".pdf":
            chunks += [p.extract_text() for p in PdfReader(io.BytesIO(path.read_bytes())).pages]
        elif path.is_file() and path.suffix in {".html", ".css", ".js", ".txt", ""}:
            chunks.append(path.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(chunks)


def make_league() -> Campaign:
    """A campaign with two more factions (no users: the site is built as the public)."""
    campaign = Campaign.objects.create(name="Test league", slug="test-league")
    for name, slug in (("Kongeriket Norge", "kongeriket-norge"), ("Qatzrin", "qatzrin")):
        campaign.factions.add(Faction.objects.create(name=name, slug=slug))
    return campaign


@pytest.fixture
def league(db):
    return make_league()


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker, tmp_path_factory):
    """One site baked for the read-only tests of this module (PDF rendering is slow).

    The data is rolled back afterwards; the baked files stay in a temporary folder.
    """
    tmp = tmp_path_factory.mktemp("publish")
    out = tmp / "site"
    with (
        django_db_blocker.unblock(),
        override_settings(MEDIA_ROOT=tmp / "media"),
        transaction.atomic(),
    ):
        battle = make_battle(make_league(), narrative=HOSTILE_MARKDOWN)
        hidden = Fleet.objects.get(slug="secret-reserve")
        silith = ShipClass.objects.get(slug="silith")
        Ship.objects.create(ship_class=silith, fleet=hidden, name="Whisper of Ptath")
        result = site_build(out_dir=out)
        transaction.set_rollback(True)
    return out, result, battle


def test_site_has_index_and_a_page_per_faction_fleet_and_battle(built):
    out, result, battle = built
    assert (out / "index.html").is_file()
    for slug in ("kongeriket-norge", "qatzrin", "phalon", "collectif-g-plus"):
        assert (out / "factions" / f"{slug}.html").is_file()
    for slug in ("test-reprisal", "test-ganesha"):
        assert (out / "fleets" / f"{slug}.html").is_file()
    page = out / "battles" / "test-league" / "colonisation-compromise.html"
    pdf = page.with_suffix(".pdf")
    assert "Colonisation compromise" in page.read_text()
    assert pdf.read_bytes().startswith(b"%PDF")
    assert 'href="colonisation-compromise.pdf"' in page.read_text()
    assert (out / "static" / "css" / "report.css").is_file()
    assert (out / "campaigns" / "test-league.html").is_file()
    assert result.battles == 1 and result.pdfs == [
        "battles/test-league/colonisation-compromise.pdf"
    ]


def test_fleet_page_lists_ships_and_their_state(built):
    out, *_ = built
    html = (out / "fleets" / "test-ganesha.html").read_text()
    assert "Vishnu Prime" in html and "Vishnu Second" in html
    assert "18 / 30" in html  # Vishnu Second: 12 of 30 hull boxes lost
    assert "Mijna 1" in html and "2 / 6" in html


def test_every_link_and_source_in_every_page_resolves_to_a_file(built):
    out, result, *_ = built
    pages = sorted(out.rglob("*.html"))
    assert len(pages) == len(result.pages) >= 8
    checked = 0
    for page in pages:
        for link in links_of(page):
            parts = urlsplit(link)
            if parts.scheme in ("http", "https", "mailto") or link.startswith("#"):
                continue
            assert not parts.scheme and not parts.netloc, f"{page}: absolute URL {link}"
            assert not link.startswith("/"), f"{page}: root-relative URL {link}"
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_relative_to(out.resolve()), f"{page}: {link} leaves the site"
            assert target.is_file(), f"{page}: {link} does not resolve"
            checked += 1
    assert checked > 30


def test_a_hidden_fleet_never_appears_in_the_output(built):
    out, *_ = built
    text = all_text(out)
    assert "Secret Reserve Squadron" not in text
    assert "secret-reserve" not in text
    assert "Whisper of Ptath" not in text
    assert not (out / "fleets" / "secret-reserve.html").exists()


@pytest.mark.django_db
def test_a_hidden_fleet_that_fought_is_not_named_in_the_report(settings, tmp_path, league):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = make_battle(league)
    Fleet.objects.filter(slug="test-ganesha").update(hidden=True, name="Ghost Armada")
    out = tmp_path / "site"
    site_build(out_dir=out)
    assert "Ghost Armada" not in all_text(out)
    page = (out / "battles/test-league" / f"{battle.slug}.html").read_text()
    assert "Vishnu Prime" not in page  # nor its ships (tests/battles/test_report_privacy.py)
    assert "Silith One" in page


def test_hostile_markdown_is_inert_in_the_baked_pages(built):
    out, *_ = built
    for page in out.rglob("*.html"):
        html = page.read_text()
        assert "<script" not in html, page
        assert "javascript:" not in html.lower(), page
        assert "onerror" not in html and "onclick" not in html, page
        assert "file:///etc/hostname" not in html and "example.com/spy.png" not in html, page
    assert "pwned" not in all_text(out)


@pytest.mark.django_db
def test_draft_battles_are_not_published(settings, tmp_path, league):
    settings.MEDIA_ROOT = tmp_path / "media"
    make_battle(league, status="draft", name="Secret plan", slug="secret-plan")
    out = tmp_path / "site"
    result = site_build(out_dir=out)
    assert result.battles == 0
    assert "Secret plan" not in all_text(out)


@pytest.mark.django_db
def test_rebuild_replaces_the_site_but_refuses_a_foreign_folder(settings, tmp_path, league):
    settings.MEDIA_ROOT = tmp_path / "media"
    out = tmp_path / "site"
    site_build(out_dir=out)
    (out / "stale.html").write_text("old")
    site_build(out_dir=out)
    assert not (out / "stale.html").exists()
    assert (out / "factions" / "qatzrin.html").is_file()
    foreign = tmp_path / "home"
    foreign.mkdir()
    (foreign / "thesis.txt").write_text("precious")
    with pytest.raises(SiteBuildError, match="not empty"):
        site_build(out_dir=foreign)
    assert (foreign / "thesis.txt").read_text() == "precious"


@pytest.mark.django_db
def test_build_site_command_and_campaign_filter(settings, tmp_path, capsys, league):
    settings.MEDIA_ROOT = tmp_path / "media"
    Campaign.objects.create(name="Other league", slug="other-league")
    out = tmp_path / "site"
    call_command("build_site", str(out), "--campaign", "test-league")
    assert "Site baked in" in capsys.readouterr().out
    assert (out / "campaigns" / "test-league.html").is_file()
    assert not (out / "campaigns" / "other-league.html").exists()
    with pytest.raises(CommandError, match="no campaign with slug 'nope'"):
        call_command("build_site", str(tmp_path / "site3"), "--campaign", "nope")


@pytest.mark.django_db
def test_site_build_queries_do_not_grow_with_ships(settings, tmp_path, league):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.MEDIA_ROOT = tmp_path / "media"
    make_battle(league)
    out = tmp_path / "site"
    site_build(out_dir=out)  # renders the PDF once; later builds reuse it

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            site_build(out_dir=out)
        return len(ctx.captured_queries)

    before = queries()
    fleet = Fleet.objects.get(slug="test-reprisal")
    silith = ShipClass.objects.get(slug="silith")
    Ship.objects.bulk_create(
        Ship(ship_class=silith, fleet=fleet, name=f"Extra {i}") for i in range(40)
    )
    assert queries() == before
    assert "Extra 39" in (out / "fleets" / "test-reprisal.html").read_text()


def test_site_build_queries_do_not_grow_with_factions(settings, tmp_path, league):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from factions.models import Territory

    settings.MEDIA_ROOT = tmp_path / "media"
    out = tmp_path / "site"

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            site_build(out_dir=out)
        return len(ctx.captured_queries)

    before = queries()
    for i in range(5):
        faction = Faction.objects.create(name=f"Extra {i}", slug=f"extra-{i}")
        league.factions.add(faction)
        Territory.objects.create(faction=faction, name=f"Rock {i}", slug=f"rock-{i}")
    assert queries() == before
    assert "Rock 4" in (out / "factions" / "extra-4.html").read_text()


def test_campaign_and_battle_pages_carry_inline_svg_charts_without_scripts(built):
    out, *_ = built
    for page in ("campaigns/test-league.html", "battles/test-league/colonisation-compromise.html"):
        html = (out / page).read_text()
        assert '<figure class="chart"><svg' in html, page
        assert "Collectif G+" in html.split('<figure class="chart">', 1)[1]
        assert "<script" not in html


def test_charts_escape_hostile_labels_and_hold_no_script():
    from campaign.publish.charts import standings_chart

    class F:
        name = '</script><script>alert(1)</script><b onmouseover="x">'

    svg = standings_chart([{"faction": F(), "won": 1, "lost": 0}])
    assert "<script" not in svg.lower()
    assert "<b onmouseover" not in svg
    assert "&lt;b onmouseover" in svg


@pytest.mark.django_db
def test_a_slug_that_would_escape_the_site_folder_is_refused(settings, tmp_path, league):
    settings.MEDIA_ROOT = tmp_path / "media"
    Faction.objects.create(name="Escapee", slug="../../../escapee")
    with pytest.raises(SiteBuildError, match="not a safe file name"):
        site_build(out_dir=tmp_path / "site")
    assert not list(tmp_path.rglob("escapee.html"))
    assert not (tmp_path / "site").exists()
