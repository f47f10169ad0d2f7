"""After-action reports: sanitising, the one context, the static-only fetcher, the PDF."""

from __future__ import annotations

import base64
import io
import logging
from urllib.request import HTTPRedirectHandler

import pytest
from django.template.loader import render_to_string
from pypdf import PdfReader

from battles.models import Battle, Participant
from battles.reports.context import render_html_document, render_pdf, report_context
from battles.reports.pdf import FetchRefused, StaticOnlyURLFetcher, pdf_from_html
from battles.templatetags.report_print import svg_data_uri
from campaign.core.markdown import render_markdown
from factions.models import Ship
from tests.battles.reports.conftest import pdf_text
from tests.battles.reports.report_fixtures import HOSTILE_MARKDOWN, make_battle


def pdf_image_count(data: bytes) -> int:
    count = 0
    for page in PdfReader(io.BytesIO(data)).pages:
        count += len(page.images)
    return count


def png_bytes() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


# --- Markdown sanitising -------------------------------------------------------------


def test_markdown_keeps_formatting_and_safe_links():
    html = render_markdown(
        "**bold** and [the rules](https://example.org/ft) and [mail](mailto:a@b.c)"
    )
    assert "<strong>bold</strong>" in html
    assert 'href="https://example.org/ft"' in html
    assert 'href="mailto:a@b.c"' in html


def test_script_tags_are_removed_with_their_content():
    html = render_markdown(HOSTILE_MARKDOWN)
    assert "<script" not in html
    assert "pwned" not in html
    assert "The escort <strong>held</strong>" in html


def test_javascript_links_lose_their_target():
    html = render_markdown(
        "[click me](javascript:alert('link')) <a href='JaVaScRiPt:alert(1)'>x</a>"
    )
    assert "javascript" not in html.lower()
    assert "click me" in html


def test_event_handlers_are_stripped():
    html = render_markdown(HOSTILE_MARKDOWN + '\n<p onclick="alert(2)">para</p>')
    for handler in ("onerror", "onclick", "alert('img')", "alert(2)"):
        assert handler not in html
    assert "para" in html


def test_images_outside_the_project_static_files_are_dropped():
    html = render_markdown(
        "![a](file:///etc/hostname) ![b](http://example.com/spy.png) ![c](//evil.test/x.png)"
        " ![d](/static/../../../../etc/hostname) ![e](data:image/png;base64,AAAA)"
        " ![f](/static/css/missing.png)"
    )
    assert "<img" not in html


def test_static_images_are_kept_and_prefixed_for_each_rendering():
    text = "![stylesheet](/static/css/report.css)"
    assert 'src="/static/css/report.css"' in render_markdown(text)
    assert 'src="admiralty-static:css/report.css"' in render_markdown(
        text, asset_prefix="admiralty-static:"
    )
    assert 'src="../static/css/report.css"' in render_markdown(text, asset_prefix="../static/")


def test_relative_links_are_unlinked_because_a_narrative_cannot_know_the_site_layout():
    html = render_markdown("[other](other.html) [top](#top)")
    assert "other.html" not in html
    assert 'href="#md-top"' in html  # anchors get the fragment's id prefix


# --- the one context ----------------------------------------------------------------


@pytest.mark.django_db
def test_report_context_gathers_sides_fates_losses_and_turns():
    battle = make_battle()
    context = report_context(battle)
    assert context["winner_name"] == "Phalon"
    phalon, gplus = context["sides"]
    assert phalon["is_winner"] and not gplus["is_winner"]
    assert [p["name"] for p in gplus["participants"]] == [
        "Vishnu Prime",
        "Vishnu Second",
        "Mijna 1",
    ]
    assert gplus["losses"]["destroyed"] == 1
    assert gplus["losses"]["damaged"] == 2
    assert gplus["losses"]["hull_lost"] == 42
    assert gplus["losses"]["craft_lost"] == 4
    assert [t["turn"] for t in context["turns"]] == [1, 2]
    assert len(context["turns"][1]["events"]) == 2
    assert "<em>asteroid belt</em>" in context["narrative_html"]


@pytest.mark.django_db
def test_report_context_query_count_does_not_grow_with_participants():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    battle = make_battle()

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            report_context(Battle.objects.get(pk=battle.pk))
        return len(ctx.captured_queries)

    small = queries()
    # two of them: the fleets the viewer may see, the ship classes (one query for all)
    assert small <= 8
    side = battle.sides.get(faction__slug="phalon")
    ship = side.participants.first().ship
    for i in range(20):
        extra = Ship.objects.create(ship_class=ship.ship_class, fleet=ship.fleet, name=f"S{i}")
        Participant.objects.create(side=side, ship=extra)
    assert queries() == small


@pytest.mark.django_db
def test_web_fragment_and_document_render_hostile_narrative_inert():
    battle = make_battle(narrative=HOSTILE_MARKDOWN)
    fragment = render_to_string("reports/battle.html", report_context(battle))
    document = render_html_document(battle)
    for html in (fragment, document):
        assert "Colonisation compromise" in html
        assert "<script" not in html
        assert "javascript:" not in html
        assert "onerror" not in html
        assert "file:///etc/hostname" not in html
        assert "http://example.com/spy.png" not in html
    assert "<style>" in document  # self-contained: the stylesheet is inlined


# --- the fetcher --------------------------------------------------------------------


def test_a_drawing_inside_the_page_fetches_nothing_outside_static_files(tmp_path, caplog):
    image = tmp_path / "local.png"
    image.write_bytes(png_bytes())
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
        f'<image href="{image.as_uri()}" width="20" height="20"/></svg>'
    )
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        data = pdf_from_html(f'<p>hello</p><img src="{svg_data_uri(svg)}">')
    assert "hello" in pdf_text(data)
    assert pdf_image_count(data) == 0  # the PNG the drawing names is not embedded
    assert "refused to fetch" in caplog.text


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/hostname",
        "FILE:///etc/passwd",
        "http://example.com/spy.png",
        "https://example.com/font.woff",
        "data:image/png;base64,iVBORw0KGgo=",
        "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'/>",
        "ftp://example.com/x",
    ],
)
def test_fetcher_refuses_anything_but_project_static_files(url):
    with pytest.raises(FetchRefused):
        StaticOnlyURLFetcher().fetch(url)


@pytest.mark.parametrize(
    "url",
    [
        "admiralty-static:../../../etc/hostname",
        "admiralty-static:/etc/hostname",
        "admiralty-static:css/%2e%2e/%2e%2e/manage.py",
        "admiralty-static:css/nope.css",
    ],
)
def test_fetcher_refuses_paths_escaping_or_missing_from_static(url):
    with pytest.raises(FileNotFoundError):
        StaticOnlyURLFetcher().fetch(url)


def test_fetcher_serves_project_static_files_and_never_follows_redirects():
    fetcher = StaticOnlyURLFetcher()
    response = fetcher.fetch("admiralty-static:css/report.css")
    assert response.content_type == "text/css"
    assert b".report" in response.read()
    assert not any(isinstance(h, HTTPRedirectHandler) for h in fetcher.handlers)


def test_weasyprint_with_the_fetcher_embeds_no_local_or_remote_image(tmp_path, caplog):
    """Second line of defence: even raw HTML naming a local file renders without it."""
    from weasyprint import HTML

    image = tmp_path / "local.png"
    image.write_bytes(png_bytes())
    html = f'<p>hello</p><img src="{image.as_uri()}"><img src="http://127.0.0.1:9/x.png">'
    # Control: WeasyPrint's default fetcher would embed the local file.
    assert pdf_image_count(HTML(string=html).write_pdf()) == 1
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        data = HTML(string=html, url_fetcher=StaticOnlyURLFetcher()).write_pdf()
    assert pdf_image_count(data) == 0
    assert "hello" in pdf_text(data)
    assert "refused to fetch" in caplog.text


# --- the PDF ------------------------------------------------------------------------


@pytest.mark.django_db
def test_pdf_names_the_battle_and_the_winner_and_embeds_nothing_hostile(monkeypatch):
    battle = make_battle(narrative=HOSTILE_MARKDOWN)
    fetched: list[str] = []
    original = StaticOnlyURLFetcher.fetch

    def spy(self, url, headers=None):
        fetched.append(url)
        return original(self, url, headers)

    monkeypatch.setattr(StaticOnlyURLFetcher, "fetch", spy)
    monkeypatch.setattr("battles.reports.pdf._sheets", {})  # parse the stylesheets afresh, watched
    data = render_pdf(battle)
    assert data.startswith(b"%PDF")
    text = pdf_text(data)
    assert "Colonisation compromise" in text
    assert "Victory: Phalon" in text or "Victoire\u202f: Phalon" in text
    assert "Vishnu Prime" in text
    assert "pwned" not in text
    assert pdf_image_count(data) == 0
    # Only the stylesheets and the fonts they declare, all from static/, and the damaged
    # ship's SSD drawn by the project (an SVG inside the page: it links nothing).
    assert "admiralty-static:css/report.css" in fetched
    drawings = [url for url in fetched if url.startswith("data:")]
    static = [url for url in fetched if url.startswith("admiralty-static:")]
    assert len(drawings) == 1 and len(static) + len(drawings) == len(fetched)
    svg = base64.b64decode(drawings[0].removeprefix("data:image/svg+xml;base64,")).decode()
    assert svg.startswith("<svg") and "Vishnu Second" in svg and "href" not in svg
    assert {url.split(":")[1].split("/")[0] for url in static} == {"css", "fonts"}


# --- ship diagrams (factions.ssd.draw) -------------------------------------------------


@pytest.mark.django_db
def test_damaged_ships_get_their_damage_diagram():
    context = report_context(make_battle())
    assert [d["ship"].name for d in context["diagrams"]] == ["Vishnu Second"]
    assert context["diagrams"][0]["svg"].lstrip().startswith("<svg")
    html = render_to_string("reports/battle.html", context)
    assert html.count('<figure class="ssd">') == 1


@pytest.mark.django_db
def test_reports_render_when_a_drawing_fails(monkeypatch):
    battle = make_battle()
    ssd = pytest.importorskip("factions.ssd.draw")

    def broken(ship):
        raise KeyError("hull")

    monkeypatch.setattr(ssd, "ship_svg", broken)
    context = report_context(battle)
    assert context["diagrams"] == []
    assert "Colonisation compromise" in render_to_string("reports/battle.html", context)


@pytest.mark.parametrize(
    ("text", "html"),
    [
        # A quote glued to the destination is part of it (else a stray ")" showed).
        ("[lien](javascript:alert('js'))", '<p><a rel="noopener noreferrer nofollow">lien</a></p>'),
        (
            "[a](https://x.org/f('b')) c",
            '<p><a href="https://x.org/f(\'b\')" rel="noopener noreferrer nofollow">a</a> c</p>',
        ),
        # A title after a space is still a title.
        (
            '[a](https://x.org "t") (c)',
            '<p><a href="https://x.org" title="t" rel="noopener noreferrer nofollow">a</a> (c)</p>',
        ),
    ],
)
def test_a_link_with_quotes_in_its_destination_leaves_no_stray_parenthesis(text, html):
    assert str(render_markdown(text)) == html
