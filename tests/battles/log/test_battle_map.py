"""The battle's map drawn on the server (battles/log/battle_map.py): ships at
the positions of the log, hidden ships neither drawn nor named, no map for a battle
recorded from the table."""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from battles.log.battle_map import MapShip, battle_map, battle_map_svg, label_places
from battles.reports.context import pdf_page_html, report_context
from battles.services import battle_resolve, event_rows
from campaign.core.actors import SYSTEM
from factions.models import Fleet
from tests.battles.battle_fixtures import draft_skirmish
from tests.battles.reports.report_fixtures import make_battle

NS = {"svg": "http://www.w3.org/2000/svg"}


def printed(battle) -> str:
    """The PDF's page with its drawings (``data:`` URLs of SVG) decoded in place."""
    page = pdf_page_html(battle)
    return re.sub(
        r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)",
        lambda m: base64.b64decode(m.group(1)).decode(),
        page,
    )


def _ends(svg: str) -> dict[str, dict[str, str]]:
    """``{engine id: {"x", "y", "heading", "label", "lost", "points"}}`` of a drawn map."""
    root = ET.fromstring(svg)
    out = {}
    for g in root.iterfind("svg:g[@class='map-ship']", NS):
        end = g.find("svg:g", NS)
        line = g.find("svg:polyline", NS)
        out[g.get("data-id")] = {
            "x": end.get("data-x"),
            "y": end.get("data-y"),
            "heading": end.get("data-heading"),
            "label": end.find("svg:text", NS).text,
            "lost": "lost" in end.get("class"),
            "points": line.get("points") if line is not None else "",
        }
    return out


def test_a_hand_made_board_gives_tracks_by_turn_end_and_exact_positions():
    ship = {"id": "ship-1", "kind": "ship", "side": "a", "label": "Hood", "own": True}
    board = {
        "sides": {"a": "Side A", "b": "Side B"},
        "moments": [
            {"turn": 1, "phase": 0},
            {"turn": 1, "phase": 5},
            {"turn": 2, "phase": 5},
            {"turn": 2, "phase": 9},
        ],
        "frames": [
            [{**ship, "x": 0, "y": 0, "h": 0}, {**ship, "id": "ship-2", "side": "b",
             "label": "Bismarck", "x": 30, "y": 30, "h": 3}],  # fmt: skip
            [{**ship, "x": 0, "y": 6, "h": 0}, {**ship, "id": "ship-2", "side": "b",
             "label": "Bismarck", "x": 30, "y": 24, "h": 3}],  # fmt: skip
            [{**ship, "x": 1.5, "y": 12.25, "h": 1}],  # the Bismarck is gone
            [{**ship, "x": 1.5, "y": 12.25, "h": 1},
             {"id": "ship-1.bay-1", "kind": "unit", "side": "a", "x": 9, "y": 9, "h": None}],
        ],
    }  # fmt: skip
    ships = battle_map(board)
    assert [(s.id, s.track, s.heading, s.lost) for s in ships] == [
        ("ship-1", [(0, 0.0, 0.0), (1, 0.0, 6.0), (2, 1.5, 12.25)], 1, False),
        ("ship-2", [(0, 30.0, 30.0), (1, 30.0, 24.0)], 3, True),
    ]
    ends = _ends(battle_map_svg(board))
    assert ends == {
        "ship-1": {"x": "1.5", "y": "12.25", "heading": "1", "label": "Hood", "lost": False,
                   "points": "0,0 0,-6 1.5,-12.25"},
        "ship-2": {"x": "30", "y": "24", "heading": "3", "label": "Bismarck", "lost": True,
                   "points": "30,-30 30,-24"},
    }  # fmt: skip


def test_no_position_no_map():
    assert battle_map({"moments": [], "frames": [], "sides": {}}) is None
    assert battle_map_svg({"moments": [], "frames": [], "sides": {}}) is None


def _expected_ends(rows) -> dict[str, tuple[float, float, int]]:
    """Last position and heading of every ship still on the table, from the log itself."""
    where: dict[str, tuple[float, float, int]] = {}
    for row in rows:
        data = row["data"]
        if row["kind"] == "deploy":
            where = {sid: (p[0], p[1], p[2]) for sid, p in data["positions"].items()}
        elif row["kind"] == "move" and data.get("ship") in where:
            x, y = data["path"][-1]
            where[data["ship"]] = (x, y, data.get("heading", where[data["ship"]][2]))
        elif row["kind"] in ("damage-destroyed", "damage-captured", "withdraw"):
            where.pop(data.get("ship"), None)
    return where


@pytest.mark.django_db
def test_a_seeded_battle_puts_every_ship_where_the_log_leaves_it():
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=11, max_turns=4)
    rows = event_rows(battle=battle)
    names = {sid: s["name"] for sid, s in rows[0]["data"]["ships"].items()}
    with translation.override("en"):
        context = report_context(battle, user=None)
    ends = _ends(str(context["battle_map"]))
    assert set(ends) == set(names)  # every ship of both (public) fleets
    expected = _expected_ends(rows)
    assert expected  # control: ships left on the table
    for sid, (x, y, heading) in expected.items():
        assert ends[sid]["lost"] is False
        assert (float(ends[sid]["x"]), float(ends[sid]["y"])) == (round(x, 2), round(y, 2))
        assert ends[sid]["heading"] == str(heading)
        assert ends[sid]["label"] == names[sid]
    assert {sid for sid, e in ends.items() if e["lost"]} == set(names) - set(expected)
    turns = max(row["game_turn"] for row in rows)
    assert all(len(e["points"].split()) == turns + 1 for sid, e in ends.items() if not e["lost"])
    assert 'class="battle-map"' in printed(battle)


@pytest.mark.django_db
def test_a_hidden_fleets_ships_are_neither_drawn_nor_named():
    battle = draft_skirmish(slug="veiled")
    phalon = battle.sides.get(faction__slug="phalon")
    for n, p in enumerate(phalon.participants.exclude(ship=None)):
        p.ship.name = f"Veiled{n}"
        p.ship.save()
    battle_resolve(user=SYSTEM, battle=battle, seed=11, max_turns=3)
    Fleet.objects.filter(pk=phalon.fleet_id).update(hidden=True)
    hidden_ids = {f"ship-{p.ship_id}" for p in phalon.participants.exclude(ship=None)}
    svg = str(report_context(battle, user=None)["battle_map"])
    ends = _ends(svg)
    assert ends and not set(ends) & hidden_ids  # the Qatzrin ships only
    assert "Veiled" not in svg and not any(h in svg for h in hidden_ids)
    assert "Veiled" not in printed(battle) and "Qatzrin" in printed(battle)
    # Control: once the fleet is public again, its ships are on the map by name.
    Fleet.objects.filter(pk=phalon.fleet_id).update(hidden=False)
    svg = str(report_context(battle, user=None)["battle_map"])
    assert hidden_ids <= set(_ends(svg)) and "Veiled0" in svg


@pytest.mark.django_db
def test_a_recorded_battle_says_it_has_no_map():
    battle = make_battle()
    with translation.override("en"):
        context = report_context(battle, user=None)
        html = render_to_string("reports/battle.html", context)
    assert context["battle_map"] is None
    assert "No map: this battle was recorded from the table" in html
    assert "battle-map" not in html.replace("report-map", "")


def _label_box(ship, place, scale):
    """The box label_places reserves for ``ship``'s name (same estimate: 0.6 em a char)."""
    x, y, anchor, _ = place
    ex, ey = ship.track[-1][1], -ship.track[-1][2]
    font = 1.4 * scale
    width = 0.6 * font * len(ship.label)
    left = ex + x - {"start": 0, "middle": width / 2, "end": width}[anchor]
    return (left, ey + y - 0.8 * font, left + width, ey + y + 0.2 * font)


def test_names_of_ships_close_together_do_not_overlap():
    # Five ships abreast, 3 mu apart (the Mieska deployment's shape): every name to the
    # right would run into the next ship's name and marker.
    ships = [
        MapShip(f"ship-{i}", name, "a", [(0, 3.0 * i, 0.0)], heading=0)
        for i, name in enumerate(["Sa'ar 1", "Sa'ar 2", "Ra'am 1", "Ra'am 2", "Tzayad 1"])
    ]
    scale = 1.0
    places = label_places(ships, scale)
    boxes = [_label_box(s, places[s.id], scale) for s in ships]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
    # A lone ship keeps its name on its right, as before.
    alone = [MapShip("ship-9", "Hood", "a", [(0, 0.0, 0.0)])]
    assert label_places(alone, scale) == {"ship-9": (1.8, 0.5, "start", False)}


def test_the_drawn_names_use_the_places_found():
    ship = {"id": "ship-1", "kind": "ship", "side": "a", "label": "Hood", "own": True}
    other = {**ship, "id": "ship-2", "label": "Bismarck"}
    board = {
        "sides": {"a": "Side A"},
        "moments": [{"turn": 0, "phase": 0}],
        "frames": [[{**ship, "x": 0, "y": 0, "h": 0}, {**other, "x": 1.5, "y": 0, "h": 0}]],
    }
    root = ET.fromstring(battle_map_svg(board))
    texts = {t.text: t for t in root.iter(f"{{{NS['svg']}}}text")}
    # Hood's right side is Bismarck's marker: Hood's name goes to its left, anchored at
    # its end; Bismarck keeps the right.
    assert texts["Hood"].get("text-anchor") == "end"
    assert texts["Bismarck"].get("text-anchor") is None
