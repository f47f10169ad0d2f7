"""The shipped code speaks for itself: no comment or docstring sends the reader to a ticket
("issue 9 item 5", "trial finding F-17", "audit A12") or to a file outside the repository
(``DESIGN.md``, ``../shared/…``, ``seeds/000_….txt``). README, *Layout*, says how the
rules are cited instead. Migrations are history and are not scanned."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

SHIPPED = ("battles", "campaign", "factions", "templates", "static/js", "static/css", "bench")
SUFFIXES = {".py", ".html", ".js", ".css", ".md", ".txt"}

#: A ticket cited by number: what the code guards against must be said instead.
TICKET = re.compile(
    r"\b(?:issue|item|leak|fault)s? \d"
    r"|\btrial (?:finding )?[A-Za-z]-\d"
    r"|\bfindings? \d|\bbreakit\b"
    r"|\baudit [A-C]\d",
    re.IGNORECASE,
)
#: A document that does not ship with the code (the rules by section are cited instead).
OUTSIDE = re.compile(r"DESIGN\.md|STYLE\.md|\.\./shared|/work/|seeds/\d{3}|audit\.md")


def _shipped_files() -> list[Path]:
    files = []
    for top in SHIPPED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and "migrations" not in path.parts:
                files.append(path)
    return files


def _hits(pattern: re.Pattern[str]) -> list[str]:
    hits = []
    for path in _shipped_files():
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return hits


def test_the_scan_reads_the_shipped_tree():
    names = {p.relative_to(ROOT).as_posix() for p in _shipped_files()}
    assert {
        "battles/services/conclude.py",
        "templates/base.html",
        "static/js/odds-panel.js",
    } <= names
    assert not any("/migrations/" in n for n in names)


@pytest.mark.parametrize(
    "line",
    [
        "# A light unit follows its carrier (issue 9 leak 2).",
        '"""Recording a battle played on the table (issue 10 item 3)."""',
        "# Read as the form takes it (trial finding m-3).",
        "/* cut with no hint, trial p-12 */",
        "# fixed after audit A12",
    ],
)
def test_a_ticket_citation_is_recognised(line):
    assert TICKET.search(line)


@pytest.mark.parametrize(
    "line",
    [
        "Exact distribution of successes of ``n`` independent trials of probability ``p``.",
        "trial = {**orders, **parsed}",
        "a reading D-3 (battles/readings.py), rules §9, seed 000, FB2",
    ],
)
def test_plain_words_are_not_citations(line):
    assert not TICKET.search(line) and not OUTSIDE.search(line)


def test_no_comment_cites_a_ticket():
    assert _hits(TICKET) == []


def test_no_comment_cites_a_file_outside_the_repository():
    assert _hits(OUTSIDE) == []
