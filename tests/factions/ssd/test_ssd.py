"""The SSD drawing: structure of the SVG for a design and for a damaged ship."""

import xml.etree.ElementTree as ET

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.sample.loader import sample_load
from factions.designs.schema import design_system_ids
from factions.models import Faction, Fleet, Ship, ShipClass
from factions.ssd.draw import ARCS, ShipDamage, design_svg, hull_rows_for, ship_svg
from tests.conftest import ROOT

NS = {"s": "http://www.w3.org/2000/svg"}


def saar(**overrides):
    design = {
        "format": "admiralty-design/1",
        "name": 'Sa\'ar <&> "x"',
        "faction": "qatzrin",
        "type_word": "corvette",
        "mass": 36,
        "thrust": 6,
        "ftl": True,
        "hull": {"boxes": 9, "rows": [3, 2, 2, 2]},
        "armour": {"layers": [2, 3]},
        "screens": 1,
        "fire_controls": 2,
        "sensors": "standard",
        "ecm": 0,
        "command": ["bridge", "life-support", "core"],
        "systems": [
            {"id": "beam-a", "kind": "weapon", "weapon": "beam-2", "arcs": ["F", "FS", "FP"]},
            {
                "id": "torp-a",
                "kind": "weapon",
                "weapon": "plasma-torpedo",
                "arcs": ["F"],
                "magazine": "mag-a",
            },
            {"id": "mag-a", "kind": "magazine", "capacity": 4},
            {"id": "pd-a", "kind": "pd"},
            {
                "id": "bay-a",
                "kind": "bay",
                "squadron": {"name": "Najna", "unit": "long-range-fighter", "size": 6},
            },
        ],
        "points": 56,
        "provisional": True,
        "rationale": "a test corvette",
    }
    design.update(overrides)
    return design


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def find_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in classes(el)]


def test_svg_is_sized_for_a4_and_escapes_names():
    svg = design_svg(saar())
    root = parse(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("width") == "190mm"
    assert root.get("height").endswith("mm")
    assert float(root.get("height")[:-2]) < 277  # fits an A4 page with margins
    assert root.get("viewBox").startswith("0 0 760 ")
    title = root.find("s:title", NS)
    assert title.text.startswith('Sa\'ar <&> "x"')
    assert "<&>" not in svg  # escaped in the markup


def test_hull_rows_boxes_and_threshold_marks():
    root = parse(design_svg(saar()))
    rows = root.findall(".//s:g[@class='hull-row']", NS)
    assert [len(find_class(r, "hull-box")) for r in rows] == [3, 2, 2, 2]
    marks = find_class(root, "threshold")
    assert [m.get("data-roll") for m in marks] == ["6", "5+", "4+"]  # none after the last row
    assert not find_class(root, "lost")


def test_hull_damage_crosses_boxes_from_the_first_row():
    root = parse(design_svg(saar(), damage=ShipDamage(hull_lost=4)))
    rows = root.findall(".//s:g[@class='hull-row']", NS)
    lost_per_row = [sum("lost" in classes(b) for b in find_class(r, "hull-box")) for r in rows]
    assert lost_per_row == [3, 1, 0, 0]


def test_armour_layers_lose_outer_layer_first():
    root = parse(design_svg(saar(), damage=ShipDamage(armour_lost=3)))
    layers = root.findall(".//s:g[@class='armour-layer']", NS)
    assert [len(find_class(lay, "armour-box")) for lay in layers] == [2, 3]
    assert [len(find_class(lay, "lost")) for lay in layers] == [2, 1]


def test_crew_dots_follow_mass_and_losses():
    root = parse(design_svg(saar(mass=41), damage=ShipDamage(crew_lost=2)))
    dots = find_class(root, "crew-dot")
    assert len(dots) == 3  # ceil(41 / 20)
    assert ["lost" in classes(d) for d in dots] == [True, True, False]


def test_every_system_is_drawn_with_its_arcs():
    root = parse(design_svg(saar()))
    systems = {g.get("data-system"): g for g in find_class(root, "system")}
    for sid in ("beam-a", "torp-a", "mag-a", "pd-a", "bay-a"):
        assert sid in systems
    for sid in ("drive", "ftl", "fc-1", "fc-2", "screen-1", "bridge", "life-support", "core"):
        assert sid in systems
    beam_arcs = find_class(systems["beam-a"], "arc")
    assert [a.get("data-arc") for a in beam_arcs] == list(ARCS)
    covered = {a.get("data-arc") for a in beam_arcs if "covered" in classes(a)}
    assert covered == {"F", "FS", "FP"}
    assert not find_class(systems["pd-a"], "arc")  # no arcs given, no diagram


def test_the_boxes_drawn_are_the_systems_a_battle_can_destroy():
    station = saar(thrust=0)
    del station["command"]
    root = parse(design_svg(station))
    drawn = {g.get("data-system") for g in find_class(root, "system")}
    assert set(design_system_ids(station)) <= drawn
    assert "drive" not in drawn  # no thrust, no drive to lose
    assert {"bridge", "life-support", "core"} <= drawn  # the engine's default command


def test_destroyed_systems_are_marked():
    lost = frozenset({"beam-a", "fc-2", "bridge"})
    root = parse(design_svg(saar(), damage=ShipDamage(systems_lost=lost)))
    destroyed = {
        g.get("data-system") for g in find_class(root, "destroyed") if g.get("data-system")
    }
    assert destroyed == set(lost)


def test_bays_show_their_squadrons():
    root = parse(design_svg(saar()))
    (bay,) = find_class(root, "bay")
    assert bay.get("data-bay") == "bay-a"
    text = " ".join(t.text or "" for t in bay.iter("{http://www.w3.org/2000/svg}text"))
    assert "Najna" in text and "×6" in text
    assert len(find_class(bay, "craft")) == 6


def test_element_ids_do_not_clash_between_two_ssds_on_one_page():
    ids_a = {el.get("id") for el in parse(design_svg(saar())).iter() if el.get("id")}
    ids_b = {el.get("id") for el in parse(design_svg(saar(name="Ra'am"))).iter() if el.get("id")}
    assert "sa-ar-x-sys-beam-a" in ids_a
    assert ids_a and ids_b and not ids_a & ids_b


def test_hull_rows_split_larger_rows_first():
    assert hull_rows_for(9) == [3, 2, 2, 2]
    assert hull_rows_for(2) == [1, 1]
    assert hull_rows_for(0) == []


@pytest.fixture
def damaged_ship(cast):
    design = saar()
    sc = ShipClass.objects.create(
        faction=cast.qatzrin,
        name="Sa'ar",
        slug="saar",
        type_word="corvette",
        mass=design["mass"],
        hull_boxes=9,
        armour=5,
        thrust=6,
        design=design,
    )
    fleet = Fleet.objects.create(faction=cast.qatzrin, name="5th fleet", slug="5th-fleet")
    return Ship.objects.create(
        name="Hanit",
        ship_class=sc,
        fleet=fleet,
        hull_lost=5,
        armour_lost=2,
        crew_lost=1,
        systems_lost=["torp-a", "fc-1"],
    )


def test_ship_svg_shows_exactly_the_ships_damage(damaged_ship):
    root = parse(ship_svg(damaged_ship))
    assert root.find("s:title", NS).text.startswith("Hanit (Sa'ar)")
    assert root.find(".//s:g[@data-system='torp-a']", NS).get("id") == (
        f"ship-{damaged_ship.pk}-sys-torp-a"
    )
    hull = find_class(root, "hull-box")
    assert ["lost" in classes(b) for b in hull] == [True] * 5 + [False] * 4
    armour = find_class(root, "armour-box")
    assert ["lost" in classes(b) for b in armour] == [True, True, False, False, False]
    crew = find_class(root, "crew-dot")
    assert ["lost" in classes(d) for d in crew] == [True, False]
    destroyed = {g.get("data-system") for g in find_class(root, "destroyed")}
    assert destroyed == {"torp-a", "fc-1"}


def test_ship_svg_of_a_class_without_design_uses_the_summary_fields(damaged_ship):
    sc = damaged_ship.ship_class
    sc.design = {}
    sc.save()
    root = parse(ship_svg(damaged_ship))
    rows = root.findall(".//s:g[@class='hull-row']", NS)
    assert [len(find_class(r, "hull-box")) for r in rows] == [3, 2, 2, 2]
    assert len(find_class(root, "armour-box")) == 5


def catalogue_designs():
    import json

    folder = ROOT / "factions" / "catalogue"
    for path in sorted(folder.glob("*.json")):
        for design in json.loads(path.read_text(encoding="utf-8"))["classes"]:
            yield pytest.param(design, id=f"{path.stem}:{design['name']}")


@pytest.mark.parametrize("design", list(catalogue_designs()))
def test_every_catalogue_design_draws_on_one_a4_page(design):
    root = parse(design_svg(design))
    assert float(root.get("height")[:-2]) < 277
    drawn = {g.get("data-system") for g in find_class(root, "system")}
    assert {s["id"] for s in design["systems"]} <= drawn
    assert len(find_class(root, "hull-box")) == design["hull"]["boxes"]
    assert len(find_class(root, "armour-box")) == sum(design.get("armour", {}).get("layers", []))


@pytest.mark.django_db
def test_damaged_ships_of_the_sample_show_exactly_their_damage():
    sample_load()
    damaged = [
        s
        for s in Ship.objects.select_related("ship_class__faction")
        if s.hull_lost or s.armour_lost or s.systems_lost
    ]
    assert damaged, "the sample's Miranda battle leaves damaged ships"
    for ship in damaged:
        root = parse(ship_svg(ship))
        hull = [("lost" in classes(b)) for b in find_class(root, "hull-box")]
        assert hull == [True] * ship.hull_lost + [False] * (len(hull) - ship.hull_lost), ship
        armour = [("lost" in classes(b)) for b in find_class(root, "armour-box")]
        assert sum(armour) == min(ship.armour_lost, len(armour)), ship
        destroyed = {
            g.get("data-system") for g in find_class(root, "system") if "destroyed" in classes(g)
        }
        assert destroyed == set(ship.systems_lost), ship


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.integers(0, 30), min_size=1, max_size=6),
    layers=st.lists(st.integers(0, 12), max_size=4),
    hull_lost=st.integers(0, 200),
    armour_lost=st.integers(0, 60),
    mass=st.integers(1, 300),
    crew_lost=st.integers(0, 20),
)
def test_any_damage_crosses_a_prefix_of_the_boxes(
    rows, layers, hull_lost, armour_lost, mass, crew_lost
):
    design = saar(hull={"boxes": sum(rows), "rows": rows}, armour={"layers": layers}, mass=mass)
    damage = ShipDamage(hull_lost=hull_lost, armour_lost=armour_lost, crew_lost=crew_lost)
    root = parse(design_svg(design, damage=damage))
    for cls, total, lost in (
        ("hull-box", sum(rows), hull_lost),
        ("armour-box", sum(layers), armour_lost),
        ("crew-dot", -(-mass // 20), crew_lost),
    ):
        marks = ["lost" in classes(b) for b in find_class(root, cls)]
        n = min(total, lost)
        assert marks == [True] * n + [False] * (total - n), cls
    assert len(find_class(root, "threshold")) == max(0, len([r for r in rows if r]) - 1)


def test_project_readings_are_flagged_on_the_drawing():
    design = saar(readings=["graser-2: project reading (long explanation)", "plasma-bolt: x"])
    with translation.override("en"):
        root = parse(design_svg(design))
    (line,) = find_class(root, "readings")
    assert line.text == "Project readings: graser-2, plasma-bolt"
    assert not find_class(parse(design_svg(saar())), "readings")


def test_the_ssd_title_names_the_faction_not_its_slug(damaged_ship, client):
    """Not "Tsaara — guerrier, phalon": the faction's name is shown."""
    Faction.objects.filter(pk=damaged_ship.ship_class.faction_id).update(name="Qatzrin Ha'Gadol")
    damaged_ship.refresh_from_db()
    title = parse(ship_svg(damaged_ship)).find("s:title", NS).text
    assert title.endswith(", Qatzrin Ha'Gadol") and "qatzrin" not in title
    sc = damaged_ship.ship_class
    for url in (sc.get_absolute_url(), f"/api/designs/{sc.pk}/ssd.svg"):
        body = client.get(url).content.decode()
        assert "corvette, Qatzrin Ha&#x27;Gadol" in body or "corvette, Qatzrin Ha'Gadol" in body
        assert "corvette, qatzrin" not in body, url
