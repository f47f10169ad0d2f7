"""Numbers in the battle log read in the reader's language: distances without a needless
``.0`` and with the language's decimal mark (``10 mu``, ``7,5 mu`` in French), a count of
one in the singular ("1 équipe")."""

from __future__ import annotations

import pytest
from django.utils import translation

from battles.log.lines import event_line
from battles.log.names import LogNames
from battles.log.veiled import veiled_line
from battles.models import Event

NAMES = LogNames(ships={"ship-1": "Silith 1", "ship-2": "Kashat-E 1"}, sides={"phalon": "Phalon"})


def _line(kind: str, summary: str, language: str, **data) -> str:
    with translation.override(language):
        return event_line(Event(kind=kind, summary=summary, data=data, game_turn=1), NAMES)


def _fire(range_mu: float) -> dict:
    return {
        "kind": "fire",
        "summary": f"Silith 1 beam-a (beam-2) at Kashat-E 1, {range_mu:.1f} mu: 2 damage",
        "ship": "ship-1",
        "system": "beam-a",
        "weapon": "beam-2",
        "target": "ship-2",
        "range": range_mu,
    }


@pytest.mark.parametrize(
    ("range_mu", "french", "english"),
    [(10.0, "10", "10"), (7.5, "7,5", "7.5"), (12.04, "12", "12"), (0.96, "1", "1")],
)
def test_a_fire_range_reads_in_the_readers_language(range_mu, french, english):
    fire = _fire(range_mu)
    assert _line(fire.pop("kind"), fire.pop("summary"), "fr", **fire) == (
        f"Silith 1 tire beam-a (beam-2) sur Kashat-E 1, à {french} mu\u202f: 2 dégâts"
    )
    fire = _fire(range_mu)
    assert _line(fire.pop("kind"), fire.pop("summary"), "en", **fire) == (
        f"Silith 1 fires beam-a (beam-2) at Kashat-E 1, {english} mu: 2 damage"
    )


def test_a_move_reads_its_point_with_the_languages_marks():
    summary = "Silith 1 +2, 1P: to (12.5, -4.0) heading 3"
    data = {"ship": "ship-1", "orders": "+2, 1P"}
    assert _line("move", summary, "fr", **data) == (
        "Silith 1 +2, 1P\u202f: vers (12,5\u202f; -4), cap 3"
    )
    assert _line("move", summary, "en", **data) == "Silith 1 +2, 1P: to (12.5, -4), heading 3"


def test_a_light_unit_flight_reads_its_distance_in_the_readers_language():
    unit = "ship-1.bay-a-1"
    summary = f"{unit} (fighter-long-range ×6) flies 7.5 mu towards Kashat-E 1"
    assert _line("light-unit-move", summary, "fr", unit=unit) == (
        "Silith 1 bay-a-1 vole 7,5 mu vers Kashat-E 1"
    )
    summary = f"{unit} (fighter-long-range ×6) flies 12.0 mu back to Silith 1"
    assert _line("light-unit-move", summary, "en", unit=unit) == (
        "Silith 1 bay-a-1 flies 12 mu back to Silith 1"
    )


@pytest.mark.parametrize(("crew", "word"), [(1, "équipe"), (2, "équipes")])
def test_damage_control_counts_its_crews_in_the_singular_and_plural(crew, word):
    purpose = f"ship-2 damage control bridge ({crew} crew, 6+)"
    line = _line("roll", f"{purpose}: d6=6", "fr", purpose=purpose, sides=6, result=6)
    assert line == f"Kashat-E 1 contrôle des avaries sur bridge ({crew} {word}, 6+)\u202f: d6=6"
    line = _line("roll", f"{purpose}: d6=6", "en", purpose=purpose, sides=6, result=6)
    assert line == f"Kashat-E 1 damage control on bridge ({crew} crew, 6+): d6=6"


def test_a_veiled_shot_reads_its_range_in_the_readers_language():
    event = Event(
        kind="fire",
        summary="Silith 1 beam-a (beam-2) at Kashat-E 1, 7.5 mu: 2 damage",
        data={"ship": "ship-1", "target": "ship-2", "range": 7.5},
        game_turn=1,
    )
    with translation.override("fr"):
        assert "à 7,5 mu" in veiled_line(event, NAMES)
    with translation.override("en"):
        assert ", 7.5 mu:" in veiled_line(event, NAMES)
