"""The text fleet-list parser, on the seed's three fleet lists and on bad input."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factions.fleetlists import (
    MAX_COUNT,
    FleetList,
    FleetListError,
    LightUnitEntry,
    ShipEntry,
    fleet_list_parse,
)
from tests.conftest import ROOT

# These tests read the English messages of the parsers and services (the French ones are the
# catalogue's; requests still follow their own Accept-Language).
pytestmark = pytest.mark.usefixtures("english")


SEED = ROOT.parent / "shared" / "seeds" / "000_a18f01393359aeaf.txt"

QATZRIN_CLASSES = ["Sa'ar", "Ra'am", "Tzayad", "Kashat-E", "Yerushalayim-L", "Barak", "Sabra"]
QATZRIN_CLASSES += ["Kineret"]

QATZRIN = """5ème flotte d'incursion lointaine :
3 corvettes classe Sa'ar
2 frégates classe Ra'am
2 destroyers classe Tzayad
2 croiseurs légers classe Kashat-E
1 croiseur lourd classe Yerushalayim-L
1 croiseur de bataille classe Barak
1 vaisseau de ligne classe Sabra
1 porte-nef léger classe Kineret
"""

# The Ganesha list as the seed lays it out: squadron counts broken onto their own line.
GANESHA = """Composition
de la flotte :
- 1 porte-nef lourd classe Kajna
3
escadrilles de chasseurs Mijna
1
escadrille de chasseurs à long rayon d’action Najna
- 2 porte-nefs légers classe Brima
1
escadrille d’intercepteurs Avna
- 1 croiseur de bataille classe Garuda
- 2 frégates classe Drina
Les
deux colonies G+ fournissent :
- 1 Faisceau classe 2
"""

PHALON = """- 3 protecteurs classe Phyaa
- 1 grand guerrier classe Ptath
La
station Petra IV fournie :
- 1 escadrille de chasseurs Nith
- 1 escadrille de chasseurs lourds Tuus
"""


def errors_of(text: str, **kwargs) -> list[str]:
    with pytest.raises(FleetListError) as info:
        fleet_list_parse(text, **kwargs)
    return [str(e) for e in info.value.errors]


def test_qatzrin_list_gives_eight_lines_and_thirteen_ships():
    fleet = fleet_list_parse(QATZRIN, class_names=QATZRIN_CLASSES)
    assert [(e.count, e.class_name) for e in fleet.ships][:2] == [(3, "Sa'ar"), (2, "Ra'am")]
    assert [e.line for e in fleet.ships] == list(range(2, 10))
    assert fleet.ships[3].type_word == "croiseurs légers"
    assert fleet.ship_count == 13
    assert fleet.light_units == ()


def test_counts_on_their_own_line_attach_squadrons_to_the_carrier_above():
    fleet = fleet_list_parse(GANESHA)
    kajna, brima, garuda, drina = fleet.ships
    assert (kajna.class_name, kajna.line) == ("Kajna", 3)
    assert [(lu.count, lu.kind, lu.unit_type, lu.line) for lu in kajna.light_units] == [
        (3, "fighter", "Mijna", 5),
        (1, "long-range-fighter", "Najna", 7),
    ]
    assert brima.count == 2
    assert [(lu.kind, lu.unit_type) for lu in brima.light_units] == [("interceptor", "Avna")]
    assert garuda.light_units == drina.light_units == ()
    (battery,) = fleet.light_units
    assert (battery.kind, battery.unit_type, battery.line) == ("battery", "beam-2", 15)
    assert battery.section == "deux colonies G+ fournissent"


def test_squadrons_under_a_heading_are_based_there_not_carried():
    fleet = fleet_list_parse(PHALON)
    assert [e.class_name for e in fleet.ships] == ["Phyaa", "Ptath"]
    assert all(e.light_units == () for e in fleet.ships)
    assert [(lu.kind, lu.unit_type, lu.section) for lu in fleet.light_units] == [
        ("fighter", "Nith", "station Petra IV fournie"),
        ("heavy-fighter", "Tuus", "station Petra IV fournie"),
    ]


def test_squadrons_after_a_non_carrier_are_not_carried_by_it():
    fleet = fleet_list_parse("2 destroyers classe Mahida\n1 escadrille de chasseurs Mijna\n")
    assert fleet.ships[0].light_units == ()
    assert fleet.light_units[0].unit_type == "Mijna"


@pytest.mark.skipif(not SEED.exists(), reason="seed file not available")
def test_the_seed_lists_parse_verbatim():
    lines = SEED.read_text(encoding="utf-8").splitlines()
    start = lines.index("5ème flotte d'incursion lointaine :")
    qatzrin = fleet_list_parse("\n".join(lines[start : start + 9]))
    assert qatzrin.ship_count == 13
    start = next(i for i, t in enumerate(lines) if t.startswith("68ème") and len(t) < 10)
    end = next(i for i, t in enumerate(lines) if "Faisceau classe 2" in t)
    miranda = fleet_list_parse("\n".join(lines[start : end + 1]))
    by_class = {e.class_name: e for e in miranda.ships}
    assert sum(e.count for e in miranda.ships if e.line < 20) == 16  # the Phalon fleet
    assert [lu.unit_type for lu in by_class["Kajna"].light_units] == ["Mijna", "Najna"]
    assert [lu.unit_type for lu in miranda.light_units] == ["Nith", "Tuus", "beam-2"]


def test_unknown_class_names_the_line_and_the_closest_class():
    text = QATZRIN.replace("1 croiseur de bataille classe Barak", "3 corvettes classe Sa'arr")
    assert errors_of(text, class_names=QATZRIN_CLASSES) == [
        'line 7: unknown ship class "Sa\'arr" (did you mean "Sa\'ar"?)'
    ]


def test_unknown_class_with_nothing_close_has_no_suggestion():
    assert errors_of("1 croiseur classe Zzzzq", class_names=QATZRIN_CLASSES) == [
        'line 1: unknown ship class "Zzzzq"'
    ]


def test_class_names_match_regardless_of_case_and_typographic_apostrophes():
    fleet = fleet_list_parse("2 frégates classe RA’AM", class_names=QATZRIN_CLASSES)
    assert fleet.ships[0].class_name == "Ra'am"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("0 corvettes classe Sa'ar", 'line 2: bad count "0" (a whole number from 1 to 100)'),
        ("-2 corvettes classe Sa'ar", 'line 2: bad count "-2" (a whole number from 1 to 100)'),
        ("101 corvettes classe Sa'ar", 'line 2: bad count "101" (a whole number from 1 to 100)'),
        ("corvettes classe Sa'ar", 'line 2: missing count in "corvettes classe Sa\'ar"'),
        ("2 corvettes de Sa'ar", 'line 2: cannot read "2 corvettes de Sa\'ar"'),
        ("2 escadrilles de bombardiers X", 'line 2: cannot read "2 escadrilles de bombardiers X"'),
    ],
)
def test_bad_lines_are_reported_with_their_line_number(line, message):
    (error,) = errors_of(f"1 porte-nef léger classe Kineret\n{line}\n")
    assert error.startswith(message)


def test_every_error_is_reported_not_just_the_first():
    text = "1 croiseur classe Sabra\n0 corvettes classe Sa'ar\n\n2 destroyers classe Tzayadd\n4\n"
    assert errors_of(text, class_names=QATZRIN_CLASSES) == [
        'line 2: bad count "0" (a whole number from 1 to 100)',
        'line 4: unknown ship class "Tzayadd" (did you mean "Tzayad"?)',
        'line 5: count "4" is not followed by a unit',
    ]


def test_two_counts_in_a_row_are_an_error():
    assert errors_of("3\n2 corvettes classe Sa'ar\n") == [
        "line 2: a second count (the count on line 1 applies here)"
    ]


@pytest.mark.parametrize(
    ("text", "line"),
    [("", 1), ("\n\n", 2), ("Flotte :\n# rien\n", 2), ("1 escadrille de chasseurs Nith", 1)],
)
def test_a_list_without_ships_is_an_error_naming_its_last_line(text, line):
    assert errors_of(text) == [f"line {line}: the fleet list has no ships"]


def test_comments_and_prose_are_ignored():
    text = "# la réserve\nNotre escadre de soutien :\n2 frégates classe Ra'am\n"
    assert fleet_list_parse(text).ships == (ShipEntry(3, 2, "frégates", "Ra'am"),)


def _strip_lines(fleet: FleetList) -> FleetList:
    return FleetList(
        ships=tuple(
            replace(s, line=0, light_units=tuple(replace(lu, line=0) for lu in s.light_units))
            for s in fleet.ships
        ),
        light_units=tuple(replace(lu, line=0) for lu in fleet.light_units),
    )


def test_the_seed_lists_round_trip_through_as_text():
    for text in (QATZRIN, GANESHA, PHALON):
        fleet = fleet_list_parse(text)
        assert _strip_lines(fleet_list_parse(fleet.as_text())) == _strip_lines(fleet)


_names = st.sampled_from(["Sa'ar", "Kajna", "Brima", "Yerushalayim-L", "Phyaa"])
_squadrons = st.builds(
    LightUnitEntry,
    line=st.just(0),
    count=st.integers(1, 6),
    kind=st.sampled_from(["fighter", "heavy-fighter", "long-range-fighter", "interceptor"]),
    unit_type=st.sampled_from(["Mijna", "Avna", "Nith", ""]),
)
_ships = st.builds(
    ShipEntry,
    line=st.just(0),
    count=st.integers(1, MAX_COUNT),
    type_word=st.sampled_from(["corvettes", "porte-nef lourd", "grand guerrier", ""]),
    class_name=_names,
)


_based = st.builds(
    LightUnitEntry,
    line=st.just(0),
    count=st.integers(1, 3),
    kind=st.sampled_from(["fighter", "heavy-fighter", "battery"]),
    unit_type=st.sampled_from(["Nith", "Tuus"]),
    section=st.sampled_from(["", "Station Petra IV", "Colonies"]),
).map(lambda lu: replace(lu, unit_type="beam-2") if lu.kind == "battery" else lu)


@given(
    st.lists(st.tuples(_ships, st.lists(_squadrons, max_size=3)), min_size=1, max_size=8),
    st.lists(_based, max_size=4),
)
def test_any_list_round_trips_through_its_text(rows, based):
    ships = tuple(replace(s, light_units=tuple(lus) if s.is_carrier else ()) for s, lus in rows)
    fleet = FleetList(ships=ships, light_units=tuple(based))
    parsed = _strip_lines(fleet_list_parse(fleet.as_text()))
    assert parsed.ships == fleet.ships
    # based units come back grouped by section (the text groups them under headings)
    assert sorted(parsed.light_units, key=repr) == sorted(fleet.light_units, key=repr)
