"""The baked site: relative links that all resolve, no hidden fleet, inert Markdown."""

from __future__ import annotations

import gzip
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.test import override_settings
from pypdf import PdfReader

from battles.models import Battle
from campaign.league.models import Campaign
from campaign.publish import SiteBuildError, feeds, search, site_build
from campaign.publish.charts import losses_chart, standings_chart
from campaign.publish.output import trees_dir
from campaign.publish.paths import safe_name
from factions.models import Faction, Fleet, Ship, ShipClass, Territory
from tests.battles.reports.report_fixtures import HOSTILE_MARKDOWN, make_battle


class LinkCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src", "data-board-src") and value is not None:
                self.links.append(value)


def links_of(page: Path) -> list[str]:
    parser = LinkCollector()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.links


def all_text(out: Path) -> str:
    """Every baked file as text: PDFs by their extracted text, the Pagefind search index
    by its decompressed fragments (what a search can show), the feed and the sitemap."""
    chunks = []
    for path in out.rglob("*"):
        if path.suffix == ".pdf":
            chunks += [p.extract_text() for p in PdfReader(io.BytesIO(path.read_bytes())).pages]
        elif path.suffix in {".pf_fragment", ".pf_index", ".pf_meta"}:
            chunks.append(gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace"))
        elif path.is_file() and path.suffix in {
            ".html",
            ".css",
            ".js",
            ".json",
            ".txt",
            ".xml",
            "",
        }:
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


BASE_URL = "https://club.example/league/"


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
        result = site_build(out_dir=out, base_url=BASE_URL)
        transaction.set_rollback(True)
    return out, result, battle


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_site_has_a_tree_per_language_with_a_page_per_faction_fleet_and_battle(built, lang):
    out, result, battle = built
    assert (out / "index.html").is_file()
    tree = out / lang
    assert (tree / "index.html").is_file()
    for slug in ("kongeriket-norge", "qatzrin", "phalon", "collectif-g-plus"):
        assert (tree / "factions" / f"{slug}.html").is_file()
    for slug in ("test-reprisal", "test-ganesha"):
        assert (tree / "fleets" / f"{slug}.html").is_file()
    assert (tree / "ships" / "test-ganesha" / "vishnu-second.html").is_file()
    page = tree / "battles" / "test-league" / "colonisation-compromise.html"
    pdf = out / "pdf" / lang / "test-league" / "colonisation-compromise.pdf"
    assert "Colonisation compromise" in page.read_text()
    assert pdf.read_bytes().startswith(b"%PDF")
    assert f'href="../../../pdf/{lang}/test-league/colonisation-compromise.pdf"' in (
        page.read_text()
    )
    assert f'<html lang="{lang}">' in page.read_text()
    assert (out / "static" / "css" / "report.css").is_file()
    assert (out / "static" / "fonts" / "LICENSE-DejaVu.txt").is_file()
    assert (tree / "campaigns" / "test-league.html").is_file()
    assert (tree / "feed.xml").is_file() and (tree / "search.html").is_file()
    assert (out / "sitemap.xml").is_file() and (out / "pagefind" / "pagefind-ui.js").is_file()
    assert result.battles == 1 and result.pdfs == [
        "pdf/fr/test-league/colonisation-compromise.pdf",
        "pdf/en/test-league/colonisation-compromise.pdf",
    ]


def pdf_text(path: Path) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(path.read_bytes())).pages)


@pytest.mark.parametrize(
    ("lang", "own", "other"),
    [
        ("fr", "Forces et objectifs", "Forces and objectives"),
        ("en", "Forces and objectives", "Forces et objectifs"),
    ],
)
def test_each_language_s_pages_link_the_pdf_in_that_language(built, lang, own, other):
    """The en tree links an English PDF and the fr tree a French one, from the
    battle's page and from the battle lists."""
    out, *_ = built
    tree = out / lang
    pdfs = set()
    for page in (
        tree / "battles" / "test-league" / "colonisation-compromise.html",
        tree / "index.html",
        tree / "campaigns" / "test-league" / "battles-1.html",
    ):
        links = [link for link in links_of(page) if link.endswith(".pdf")]
        assert links, page
        pdfs |= {(page.parent / link).resolve() for link in links}
    assert pdfs == {(out / "pdf" / lang / "test-league" / "colonisation-compromise.pdf").resolve()}
    text = pdf_text(pdfs.pop())
    assert own in text and other not in text


def test_every_page_links_to_the_same_page_in_the_other_language(built):
    out, *_ = built
    page = out / "fr" / "battles" / "test-league" / "colonisation-compromise.html"
    assert 'href="../../../en/battles/test-league/colonisation-compromise.html"' in (
        page.read_text()
    )
    fr, en = (out / "fr" / "index.html").read_text(), (out / "en" / "index.html").read_text()
    assert "Factions" in en and "Batailles" in fr and "Battles" in en


def test_the_feed_is_atom_and_lists_published_reports_with_absolute_links(built):
    import xml.etree.ElementTree as ET

    out, *_ = built
    root = ET.fromstring((out / "en" / "feed.xml").read_bytes())
    ns = {"a": "http://www.w3.org/2005/Atom"}
    entries = root.findall("a:entry", ns)
    assert [e.find("a:title", ns).text for e in entries] == ["Colonisation compromise"]
    link = entries[0].find("a:link", ns).get("href")
    assert link == BASE_URL + "en/battles/test-league/colonisation-compromise.html"
    assert entries[0].find("a:id", ns).text == link
    assert root.find("a:link[@rel='self']", ns).get("href") == BASE_URL + "en/feed.xml"
    sitemap = (out / "sitemap.xml").read_text()
    assert f"<loc>{BASE_URL}fr/battles/test-league/colonisation-compromise.html</loc>" in sitemap


def fragments_of(bundle: Path) -> list[str]:
    return [gzip.decompress(p.read_bytes()).decode() for p in bundle.glob("fragment/*.pf_fragment")]


def test_the_search_index_holds_both_languages_pages_in_shards_the_search_page_merges(built):
    out, result, battle = built
    # Shards are buckets of ids: which one depends on the ids this test run handed out.
    battle_shard = search.shard("battles", battle.pk)
    ship_shards = sorted(s for s in result.search_shards if s.startswith("ships-"))
    main, battles = out / "pagefind", out / "pagefind" / "shards" / battle_shard
    assert any('"/en/factions/qatzrin.html"' in f for f in fragments_of(main))
    assert any(
        '"/fr/battles/test-league/colonisation-compromise.html"' in f for f in fragments_of(battles)
    )
    assert not any("colonisation-compromise" in f for f in fragments_of(main))
    assert (battles / "pagefind-entry.json").is_file()
    page = (out / "en" / "search.html").read_text()
    assert ship_shards and f'data-shards="{" ".join([battle_shard, *ship_shards])}"' in page


def _indexed_text(bundle: Path, page: str) -> str:
    """What Pagefind indexed of ``page`` (its fragment's ``content``)."""
    fragment = next(f for f in fragments_of(bundle) if f'"url":"/{page}"' in f)
    return json.loads(fragment.removeprefix("pagefind_dcd"))["content"]


@pytest.mark.parametrize(
    ("lang", "noise"),
    [
        ("en", ["Hull lost", "Armour lost", "Hull boxes", "Location", "No map", "Recorded from"]),
        ("fr", ["Coque perdue", "Cases de coque", "Lieu", "Pas de carte", "Relevée sur"]),
    ],
)
def test_a_battle_is_found_by_place_ship_faction_fleet_and_narrative_not_table_labels(
    built, lang, noise
):
    out, _result, battle = built
    bundle = out / "pagefind" / "shards" / search.shard("battles", battle.pk)
    text = _indexed_text(bundle, f"{lang}/battles/test-league/colonisation-compromise.html")
    for words in ("Colonisation compromise", "Miranda", "Silith One", "Vishnu Second", "Phalon",
                  "Collectif G+", "Test Ganesha force", "The escort held",
                  "Fighters arrived too late", "The Phalon hold the field"):  # fmt: skip
        assert words in text
    for words in noise:  # labels every report repeats, left out (search.EXCLUDED)
        assert words not in text
    assert " 30 " not in text  # Vishnu Prime's 30 hull boxes lost: the tables' counts
    assert "Secret Reserve" not in text and "Whisper of Ptath" not in text


def test_fleet_page_lists_ships_and_their_state(built):
    out, *_ = built
    html = (out / "fr" / "fleets" / "test-ganesha.html").read_text()
    assert "Vishnu Prime" in html and "Vishnu Second" in html
    assert "18 / 30" in html  # Vishnu Second: 12 of 30 hull boxes lost
    assert "Mijna 1" in html and "2 / 6" in html


def test_every_link_and_source_in_every_page_resolves_to_a_file(built):
    out, result, *_ = built
    pages = sorted(out.rglob("*.html"))
    assert len(pages) == len([p for p in result.pages if p.endswith(".html")]) >= 8
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


def test_every_anchor_of_every_page_names_an_id_of_its_target(built):
    out, *_ = built
    for page in sorted(out.rglob("*.html")):
        if "pagefind" in page.parts:
            continue
        for link in links_of(page):
            parts = urlsplit(link)
            if parts.scheme or not parts.fragment:
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            assert f'id="{parts.fragment}"' in target.read_text(), f"{page}: {link}"


def test_a_hidden_fleet_never_appears_in_the_output(built):
    out, *_ = built
    text = all_text(out)
    assert "Secret Reserve Squadron" not in text
    assert "secret-reserve" not in text
    assert "Whisper of Ptath" not in text
    assert not (out / "fr" / "fleets" / "secret-reserve.html").exists()


@pytest.mark.django_db
def test_a_hidden_fleet_that_fought_is_not_named_in_the_report(settings, tmp_path, league):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = make_battle(league)
    Fleet.objects.filter(slug="test-ganesha").update(hidden=True, name="Ghost Armada")
    out = tmp_path / "site"
    site_build(out_dir=out)
    assert "Ghost Armada" not in all_text(out)
    page = (out / "fr/battles/test-league" / f"{battle.slug}.html").read_text()
    # nor its ships (tests/battles/reports/test_report_privacy.py)
    assert "Vishnu Prime" not in page
    assert "Silith One" in page


def test_hostile_markdown_is_inert_in_the_baked_pages(built):
    out, *_ = built
    for page in out.rglob("*.html"):
        html = page.read_text()
        # Only the search page loads scripts: Pagefind's UI and ours, from files.
        scripts = re.findall(r"<script\b[^>]*>", html)
        assert all(re.search(r'src="[./]*(pagefind|static/js)/', tag) for tag in scripts), page
        if page.name != "search.html":
            assert not scripts, page
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
    assert (out / "fr" / "factions" / "qatzrin.html").is_file()
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
    assert (out / "fr" / "campaigns" / "test-league.html").is_file()
    assert not (out / "fr" / "campaigns" / "other-league.html").exists()
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
    assert "Extra 39" in (out / "fr" / "fleets" / "test-reprisal.html").read_text()


def test_site_build_queries_do_not_grow_with_factions(settings, tmp_path, league):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

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
    assert "Rock 4" in (out / "fr" / "factions" / "extra-4.html").read_text()


def test_campaign_and_battle_pages_carry_inline_svg_charts_without_scripts(built):
    out, *_ = built
    for page in (
        "fr/campaigns/test-league.html",
        "fr/battles/test-league/colonisation-compromise.html",
    ):
        html = (out / page).read_text()
        assert '<figure class="chart"><svg' in html, page
        assert "Collectif G+" in html.split('<figure class="chart">', 1)[1]
        assert "<script" not in html


def test_charts_escape_hostile_labels_and_hold_no_script():
    class F:
        name = '</script><script>alert(1)</script><b onmouseover="x">'

    svg = standings_chart([{"faction": F(), "won": 1, "lost": 0}])
    assert "<script" not in svg.lower()
    assert "<b onmouseover" not in svg
    assert "&lt;b onmouseover" in svg


@pytest.mark.django_db
def test_a_slug_that_would_escape_the_site_folder_becomes_a_safe_name(settings, tmp_path, league):
    settings.MEDIA_ROOT = tmp_path / "media"
    Faction.objects.create(name="Escapee", slug="../../../escapee")
    site_build(out_dir=tmp_path / "site", search_index=False)
    found = list(tmp_path.rglob("escapee.html"))
    trees = trees_dir(tmp_path / "site")  # the site's link points to one of its two trees
    folders = [trees / tree / lang / "factions" for tree in "ab" for lang in ("fr", "en")]
    assert found and all(any(p.is_relative_to(f) for f in folders) for p in found)


@pytest.mark.django_db
def test_names_differing_only_in_case_give_two_files(settings, tmp_path, league):
    settings.MEDIA_ROOT = tmp_path / "media"
    faction = Faction.objects.get(slug="qatzrin")
    first = Fleet.objects.create(faction=faction, name="Hood", slug="Hood")
    second = Fleet.objects.create(faction=faction, name="HOOD", slug="HOOD")
    out = tmp_path / "site"
    site_build(out_dir=out, search_index=False, languages=["en"])
    names = sorted(p.name for p in (out / "en" / "fleets").iterdir())
    assert names == sorted(["hood.html", f"hood-{second.pk}.html"])
    assert first.pk < second.pk
    faction_page = (out / "en" / "factions" / "qatzrin.html").read_text()
    assert 'href="../fleets/hood.html"' in faction_page
    assert f'href="../fleets/hood-{second.pk}.html"' in faction_page


@pytest.mark.django_db
def test_a_rebuild_writes_only_what_changed_and_a_new_battle_only_what_shows_it(
    settings, tmp_path, league
):
    settings.MEDIA_ROOT = tmp_path / "media"
    make_battle(league)
    out = tmp_path / "site"
    site_build(out_dir=out, search_index=False)
    ship_page = out / "fr" / "ships" / "test-reprisal" / "silith-one.html"
    inode = ship_page.stat().st_ino
    again = site_build(out_dir=out, search_index=False)
    assert again.written == []
    assert ship_page.stat().st_ino == inode  # the very same file, not rewritten
    make_battle(league, name="Second clash", slug="second-clash")
    third = site_build(out_dir=out, search_index=False)
    written = set(third.written)
    assert "fr/battles/test-league/second-clash.html" in written
    assert "fr/battles/test-league/colonisation-compromise.html" not in written
    assert "fr/factions/qatzrin.html" not in written  # Qatzrin did not fight
    assert "fr/campaigns/test-league.html" in written


@pytest.mark.django_db
def test_a_failed_build_leaves_the_old_site_whole(settings, tmp_path, league, monkeypatch):
    settings.MEDIA_ROOT = tmp_path / "media"
    out = tmp_path / "site"
    site_build(out_dir=out, search_index=False)
    before = sorted(p.relative_to(out) for p in out.rglob("*"))

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("campaign.publish.feeds.write_sitemap", broken)
    make_battle(league)  # a change: else the build keeps the site without building
    with pytest.raises(RuntimeError):
        site_build(out_dir=out, search_index=False)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".site-")]


def test_without_a_base_url_no_sitemap_and_the_feed_links_relative(settings, tmp_path, league):
    """No base URL anywhere: no URL is invented. The sitemap (absolute URLs only) is not
    written, a previous one is removed, the feed links relative to itself with stable
    urn:uuid ids, and the command says so."""
    import xml.etree.ElementTree as ET

    settings.MEDIA_ROOT = tmp_path / "media"
    settings.SITE_BASE_URL = ""
    make_battle(league)
    out = tmp_path / "site"
    first = site_build(out_dir=out, pdfs=False, search_index=False, base_url=BASE_URL)
    assert (out / "sitemap.xml").is_file() and first.warnings == []

    result = site_build(out_dir=out, pdfs=False, search_index=False)
    assert not (out / "sitemap.xml").exists() and "sitemap.xml" in result.removed
    assert result.warnings == [feeds.NO_BASE_URL_WARNING]
    ns = {"a": "http://www.w3.org/2005/Atom"}
    feed = (out / "fr" / "feed.xml").read_bytes()
    root = ET.fromstring(feed)
    entry = root.find("a:entry", ns)
    href = entry.find("a:link", ns).get("href")
    assert href == "battles/test-league/colonisation-compromise.html"
    assert (out / "fr" / href).is_file()  # resolves against the feed's own address
    assert entry.find("a:id", ns).text.startswith("urn:uuid:")
    assert root.find("a:id", ns).text.startswith("urn:uuid:")
    assert b"127.0.0.1" not in feed and b"http://" not in feed.replace(
        b"http://www.w3.org/2005/Atom", b""
    )
    again = site_build(out_dir=out, pdfs=False, search_index=False)
    assert "fr/feed.xml" not in again.written  # ids and links are stable

    call_command("build_site", str(out), "--no-pdfs", "--no-search")
    assert not (out / "sitemap.xml").exists()


def test_the_base_url_comes_from_the_setting_or_the_option_and_must_be_absolute(
    settings, tmp_path, league, capsys
):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.SITE_BASE_URL = "https://fleet.example/site"
    make_battle(league)
    out = tmp_path / "site"
    result = site_build(out_dir=out, pdfs=False, search_index=False)
    assert result.warnings == []
    assert "<loc>https://fleet.example/site/index.html</loc>" in (out / "sitemap.xml").read_text()
    call_command(
        "build_site", str(out), "--no-pdfs", "--no-search", "--base-url", "http://other.example/"
    )
    assert "<loc>http://other.example/en/index.html</loc>" in (out / "sitemap.xml").read_text()
    for bad in ("club.example/league", "/league/", "ftp://club.example/", "https://x.example/?a=1"):
        with pytest.raises(SiteBuildError, match="absolute http"):
            site_build(out_dir=out, pdfs=False, search_index=False, base_url=bad)
        with pytest.raises(CommandError, match="absolute http"):
            call_command("build_site", str(out), "--no-pdfs", "--base-url", bad)
    assert "<loc>http://other.example/" in (out / "sitemap.xml").read_text()  # left whole


@pytest.mark.django_db
def test_a_new_battle_re_indexes_only_its_search_shard_and_adds_a_list_page(
    settings, tmp_path, league, monkeypatch
):
    """Incremental by design: with one battle a shard and a list page, a new
    battle re-indexes the main bundle and its own shard; the shards of the earlier
    battles are kept from the previous site, untouched, though their list pages gain a
    "later battles" link (the lists are not searched)."""
    monkeypatch.setattr("campaign.publish.search.SHARD_SIZE", 1)
    monkeypatch.setattr("campaign.publish.pages.LIST_SIZE", 1)
    settings.MEDIA_ROOT = tmp_path / "media"
    first = make_battle(league)
    out = tmp_path / "site"
    built = site_build(out_dir=out, pdfs=False, languages=["en"])
    assert {f"battles-{first.pk}", "site"} < set(built.search_shards)
    shard = out / "pagefind" / "shards" / f"battles-{first.pk}" / "pagefind-entry.json"
    middle = make_battle(league, name="Middle clash", slug="middle-clash")
    site_build(out_dir=out, pdfs=False, languages=["en"])
    inode = shard.stat().st_ino
    second = make_battle(league, name="Second clash", slug="second-clash")
    again = site_build(out_dir=out, pdfs=False, languages=["en"])
    # make_battle adds ships too: their shards are new; the first battle's is kept.
    assert {f"battles-{second.pk}", "site"} < set(again.search_shards)
    assert f"battles-{first.pk}" not in again.search_shards
    assert f"battles-{middle.pk}" not in again.search_shards
    assert shard.stat().st_ino == inode
    # The new list pages, and the previous last ones (they gain a "later battles" link).
    lists = sorted(p for p in again.written if "/battles-" in p)
    assert lists == [
        f"en/{folder}/battles-{n}.html"
        for folder in ("campaigns/test-league", "factions/collectif-g-plus", "factions/phalon")
        for n in (2, 3)
    ]
    search = (out / "en" / "search.html").read_text()
    assert f"battles-{first.pk} battles-{middle.pk} battles-{second.pk}" in search
    page = (out / "en" / "campaigns" / "test-league" / "battles-3.html").read_text()
    assert "Second clash" in page and 'rel="prev"' in page and 'rel="next"' not in page


def test_the_losses_chart_stacks_each_sides_losses_to_scale_and_escapes_names():
    svg = str(
        losses_chart(
            [
                ("<b>Phalon</b>", {"destroyed": 2, "captured": 1, "damaged": 3}),
                ("Collectif G+", {"destroyed": 0, "captured": 0, "damaged": 1}),
            ]
        )
    )
    # Ticks 0…6 over a 186-unit plot: 31 units a unit lost.
    heights = re.findall(r'<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="([\d.]+)"', svg)
    assert heights[:4] == ["62.0", "31.0", "93.0", "31.0"]
    assert "&lt;b&gt;Phalon&lt;/b&gt;" in svg and "<b>" not in svg
    assert "<script" not in svg
    assert losses_chart([]) is None


@pytest.mark.django_db
def test_a_battle_page_is_rendered_again_when_what_it_shows_changes(settings, tmp_path, league):
    """Battle pages are keyed by what they read, not by their HTML: a fleet renamed, a
    ship damaged since, a side's objective edited each render the page again."""
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = make_battle(league)
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    page = "en/battles/test-league/colonisation-compromise.html"
    Fleet.objects.filter(slug="test-ganesha").update(name="Ganesha Renamed")
    assert page in site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"]).written
    assert "Ganesha Renamed" in (out / page).read_text()
    Ship.objects.filter(name="Vishnu Second").update(hull_lost=13)
    assert page in site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"]).written
    battle.sides.filter(order=0).update(primary_objective="Hold **Miranda** at all costs")
    again = site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    assert page in again.written and "<strong>Miranda</strong>" in (out / page).read_text()
    assert site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"]).written == []


def test_file_names_transliterate_latin_letters_and_keep_ascii_ones():
    """Non-ASCII names keep their letters: "Ørsted" once became ``…-rsted.html``."""
    assert safe_name("raid-ørsted", 7) == "raid-orsted"
    assert (
        safe_name("Æbeltoft-Straße-Łódź-Þórshöfn-café", 7)
        == "aebeltoft-strasse-lodz-thorshofn-cafe"
    )
    # ASCII names keep the file names they had
    assert safe_name("Hood", 7) == "hood"
    assert safe_name("../../../escapee", 7) == "escapee"
    assert safe_name("Сибирь", 7) == "item-7"


@pytest.mark.django_db
def test_a_battle_named_with_a_nordic_letter_gets_a_readable_file(settings, tmp_path, league):
    settings.MEDIA_ROOT = tmp_path / "media"

    battle = make_battle(league)
    Battle.objects.filter(pk=battle.pk).update(slug="raid-ørsted")
    out = tmp_path / "site"
    site_build(out_dir=out, search_index=False, languages=["en"])
    assert (out / "en" / "battles" / "test-league" / "raid-orsted.html").exists()
    assert not (out / "en" / "battles" / "test-league" / "raid-rsted.html").exists()
