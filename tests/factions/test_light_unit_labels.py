"""A light-unit group's kind and type in reports (factions.type_words.light_unit_label): the
seed's English type words are not printed beside a French kind."""

from __future__ import annotations

import pytest
from django.utils import translation

from factions.models import LightUnitGroup
from factions.ssd.draw import system_labels
from factions.type_words import light_unit_label


@pytest.mark.parametrize(
    ("kind", "unit_type", "fr", "en"),
    [
        ("long-range-fighter", "long-range fighter", "chasseurs à long rayon d'action",
         "long-range fighters"),
        ("gunboat", "heavy transport", "canonnières, transports lourds",
         "gunboats, heavy transports"),
        ("gunboat", "EMP launcher", "canonnières, lanceurs IEM", "gunboats, EMP launchers"),
        ("fighter", "Nith", "chasseurs (Nith)", "fighters (Nith)"),
        ("fighter", "", "chasseurs", "fighters"),
    ],
)  # fmt: skip
def test_a_group_reads_in_the_readers_words(kind, unit_type, fr, en):
    for language, expected in (("fr", fr), ("en", en)):
        with translation.override(language):
            label = LightUnitGroup.Kind(kind).label
            assert light_unit_label(kind, str(label), unit_type) == expected


def test_system_labels_never_fail_on_a_design_the_engine_cannot_build():
    assert system_labels({}) == {}
    partial = {"systems": [{"id": "pd-a", "kind": "pd"}, "junk"]}
    with translation.override("en"):
        assert system_labels(partial) == {"pd-a": "point defence"}
