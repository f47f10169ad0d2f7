"""Heading ids in people's Markdown: readable in any script, stable when a heading is added
above, unique by text, and reached by the links that name them."""

from __future__ import annotations

import re

from campaign.core.markdown import heading_slug, render_markdown


def _ids(html: str) -> list[str]:
    return re.findall(r'<h[1-6] id="([^"]*)"', html)


def _hrefs(html: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', html)


def test_headings_in_any_script_keep_readable_ids():
    html = render_markdown("# Битва при Калуге\n\n## Đồng Hới\n\n## 東京の戦い\n\n## Épilogue")
    assert _ids(html) == ["md-битва-при-калуге", "md-dong-hoi", "md-東京の戦い", "md-epilogue"]


def test_an_id_does_not_move_when_a_heading_is_added_above():
    before = _ids(render_markdown("## Калуга\n\ntext"))
    after = _ids(render_markdown("## Прелюдия\n\n## Калуга\n\ntext"))
    assert before == ["md-калуга"]
    assert after == ["md-прелюдия", "md-калуга"]


def test_repeated_heading_texts_take_a_numbered_suffix():
    html = render_markdown("## Fin\n\n## Калуга\n\n## Fin\n\n## Fin\n\n## ⚔\n\n## * *")
    assert _ids(html) == [
        "md-fin",
        "md-калуга",
        "md-fin-2",
        "md-fin-3",
        "md-section",
        "md-section-2",
    ]


def test_links_written_as_the_heading_reads_reach_its_id():
    text = (
        "## Épilogue\n\n## Đồng Hới\n\n## Калуга\n\n"
        "[a](#épilogue) [b](#Épilogue) [c](#%C3%A9pilogue) [d](#đồng-hới) [e](#Калуга)"
    )
    html = render_markdown(text, id_prefix="narrative-")
    assert _ids(html) == ["narrative-epilogue", "narrative-dong-hoi", "narrative-калуга"]
    assert _hrefs(html) == [
        "#narrative-epilogue",
        "#narrative-epilogue",
        "#narrative-epilogue",
        "#narrative-dong-hoi",
        "#narrative-калуга",
    ]


def test_explicit_ids_and_footnotes_keep_their_anchors():
    html = render_markdown("## Custom {#MyId}\n\n[c](#MyId) A[^1]\n\n[^1]: note")
    assert _ids(html) == ["md-MyId"]
    assert _hrefs(html) == ["#md-MyId", "#md-fn:1", "#md-fnref:1"]


def test_heading_slug():
    assert heading_slug("Đồng Hới") == "dong-hoi"
    assert heading_slug("  Straße — Øresund  ") == "strasse-oresund"
    assert heading_slug("Ἑλλάς") == "ἑλλάς"
    assert heading_slug("!!!") == "section"
