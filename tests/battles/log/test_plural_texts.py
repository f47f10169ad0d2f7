"""Counts in user-facing texts take the singular at 1 (ngettext / blocktranslate count):
the turn cap of a battle's set-up line and the systems lost in a ship's label, in both
languages."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from battles.log.lines import event_line
from battles.log.names import LogNames
from battles.web.forms import ship_label


def _setup_line(max_turns: int) -> str:
    event = SimpleNamespace(
        kind="setup",
        summary="",
        data={"sides": ["a", "b"], "seed": 9, "max_turns": max_turns},
    )
    return event_line(event, LogNames(sides={"a": "Qatzrin", "b": "Phalon"}))


@pytest.mark.parametrize(
    ("lang", "turns", "line"),
    [
        ("en", 1, "Qatzrin against Phalon; seed 9, at most 1 turn"),
        ("en", 12, "Qatzrin against Phalon; seed 9, at most 12 turns"),
        ("fr", 1, "Qatzrin contre Phalon\u202f; graine 9, 1 tour au plus"),
        ("fr", 12, "Qatzrin contre Phalon\u202f; graine 9, 12 tours au plus"),
    ],
)
def test_the_set_up_line_counts_its_turns(lang, turns, line):
    with translation.override(lang):
        assert _setup_line(turns) == line


@pytest.mark.parametrize(
    ("lang", "lost", "tail"),
    [
        ("en", ["beam-a"], "1 system lost"),
        ("en", ["beam-a", "fc-1"], "2 systems lost"),
        ("fr", ["beam-a"], "1 système perdu"),
        ("fr", ["beam-a", "fc-1"], "2 systèmes perdus"),
    ],
)
def test_a_ship_label_counts_its_systems_lost(lang, lost, tail):
    ship = SimpleNamespace(
        name="Garuda",
        hull_lost=0,
        armour_lost=0,
        systems_lost=lost,
        ship_class=SimpleNamespace(name="Garuda", hull_boxes=20),
    )
    with translation.override(lang):
        assert ship_label(ship) == f"Garuda (Garuda) — {tail}"
