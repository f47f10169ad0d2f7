"""A launched unit is named on the board in the reader's words ("Long-range fighters ×6"),
not by the engine's weapon id ("fighter-long-range ×6")."""

from __future__ import annotations

from django.utils import translation

from battles.play.board import launched_label


def test_a_launched_unit_is_named_by_its_kind():
    with translation.override("en"):
        assert launched_label("fighter-long-range", 6) == "Long-range fighters ×6"
        assert launched_label("fighter-heavy", 4) == "Heavy fighters ×4"
        assert launched_label("drone-heavy", 2) == "Drones ×2"
        assert launched_label("gunboat-pd", 3) == "Gunboats ×3"
        assert launched_label("missile-salvo", 6) == "Missiles ×6"
        assert launched_label("mystery-weapon", None) == "mystery-weapon ×?"
    with translation.override("fr"):
        assert launched_label("fighter-long-range", 6) == "Chasseurs à long rayon d'action ×6"
