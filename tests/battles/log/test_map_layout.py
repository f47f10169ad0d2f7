"""The battle's geometry is computed once on the server (battles/log/battle_map.py): the
replay's board carries where each marker is drawn and each name written, and the
report's map writes the same names at the same places."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from battles.log.battle_map import board_layout, map_view
from battles.log.map_labels import place_labels
from battles.models import Battle
from battles.play.context import battle_viewer, board_for
from battles.reports.context import report_context
from battles.services import battle_resolve
from campaign.core.actors import SYSTEM
from campaign.publish.replays import public_viewer, replay_json
from factions.access import visible_fleets
from tests.battles.battle_fixtures import draft_skirmish

NS = {"svg": "http://www.w3.org/2000/svg"}


@pytest.fixture
def fought(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = draft_skirmish(cast.campaign)
    battle_resolve(user=SYSTEM, battle=battle, seed=11, max_turns=1)
    return Battle.objects.get(pk=battle.pk)


def _report_names(svg: str) -> dict[str, tuple[float, float, float, float, str]]:
    """``{ship id: (x, y of its end, x, y of its name, anchor)}`` of the report's map."""
    out = {}
    for g in ET.fromstring(svg).iterfind("svg:g[@class='map-ship']", NS):
        end = g.find("svg:g", NS)
        text = end.find("svg:text", NS)
        out[g.get("data-id")] = (
            float(end.get("data-x")), -float(end.get("data-y")),
            float(text.get("x")), float(text.get("y")), text.get("text-anchor") or "start",
        )  # fmt: skip
    return out


def test_the_report_and_the_replay_write_each_name_at_the_same_place(fought):
    svg = str(report_context(fought)["battle_map"])
    board = board_for(fought, battle_viewer(fought, None))
    last = board["frames"][-1]
    # The battle's end as both show it: every ship still on the table, nothing else.
    assert [m["kind"] for m in last] == ["ship"] * 8
    drawn = board["layout"]["frames"][-1]
    replay = {
        m["id"]: (at["x"], at["y"], at["label"]["x"], at["label"]["y"], at["label"]["anchor"])
        for m, at in zip(last, drawn, strict=True)
    }
    assert replay == _report_names(svg)
    # The view and the grid are the report's too.
    root = ET.fromstring(svg)
    assert [float(v) for v in root.get("viewBox").split()] == board["layout"]["view"]
    grid = root.find("svg:path", NS).get("d")
    assert grid == board["layout"]["grid"]


def test_the_baked_replay_carries_the_same_layout(fought):
    public = set(visible_fleets(None).values_list("pk", flat=True))
    viewer = public_viewer(fought, public)
    data = json.loads(replay_json(fought, fought.events.order_by("sequence"), viewer))
    assert data["board"]["layout"] == board_for(fought, battle_viewer(fought, None))["layout"]


def test_a_hand_made_board_gets_exact_positions_headings_and_names():
    ship = {"id": "ship-1", "kind": "ship", "side": "a", "label": "Hood", "own": True}
    unit = {"id": "ship-1.bay-1", "kind": "unit", "side": "a", "label": "", "own": True}
    board = {
        "sides": {"a": "Side A"},
        "moments": [{"turn": 0, "phase": 0}, {"turn": 1, "phase": 5}],
        "frames": [
            [{**ship, "x": 0, "y": 0, "h": 0}],
            [{**ship, "x": 12, "y": 30, "h": 2}, {**unit, "x": 20, "y": 30, "h": None}],
        ],
    }
    assert map_view(board) == (-8.0, -8.0, 28.0, 38.0)  # 8 mu around every position
    layout = board_layout(board)
    scale = 46 / 60  # the view's longer side over 60
    assert layout["view"] == [-8.0, -38.0, 36.0, 46.0]
    assert layout["scale"] == round(scale, 4) and layout["font"] == round(1.4 * scale, 2)
    assert layout["grid"] == (
        "M0,-38V8M12,-38V8M24,-38V8M-8,0H28M-8,-12H28M-8,-24H28M-8,-36H28"
    )  # a line every 12 mu, y down
    first, second = layout["frames"]
    # A lone ship's name on its right, the report's first spot.
    assert first == [
        {"x": 0, "y": 0, "rotate": 0,
         "label": {"x": round(1.8 * scale, 2), "y": round(0.5 * scale, 2), "anchor": "start",
                   "leader": None}},
    ]  # fmt: skip
    assert second[0]["x"] == 12 and second[0]["y"] == -30 and second[0]["rotate"] == 120
    assert second[1] == {"x": 20, "y": -30, "rotate": None, "label": None}  # no name
    # The unit 8 mu to the right is in the way of nothing at this scale: the first spot.
    assert second[0]["label"]["anchor"] == "start"
    assert place_labels([(0.0, 0.0, "")], 1.0) == [None]
