"""The two fleets of the benchmark battle, built from the design catalogue.

Qatzrin's 5th long-range incursion fleet and the Phalon 68th reprisal fleet (ship counts as
the seed gives them). Designs are read from ``factions/catalogue/<slug>.json`` (the agreed
``admiralty-design/1`` documents) when the file and the class are present; otherwise a
*provisional* design defined here is used, and ``provisional_classes()`` names it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from battles.rules.ships import ShipState

CATALOGUE = Path(__file__).resolve().parents[1] / "factions" / "catalogue"

QATZRIN_5TH: tuple[tuple[str, int], ...] = (
    ("Sa'ar", 3),
    ("Ra'am", 2),
    ("Tzayad", 2),
    ("Kashat-E", 2),
    ("Yerushalayim-L", 1),
    ("Barak", 1),
    ("Sabra", 1),
    ("Kineret", 1),
)
PHALON_68TH: tuple[tuple[str, int], ...] = (
    ("Phyaa", 3),
    ("Tyaph", 3),
    ("Phuun", 2),
    ("Dinth", 2),
    ("Silith", 2),
    ("Tsaara", 2),
    ("Huulth", 1),
    ("Ptath", 1),
)

_FWD = ["FP", "F", "FS"]
_ALL = ["F", "FS", "AS", "A", "AP", "FP"]

# Provisional stats (bench only): (mass, thrust, hull, armour, fcs, screens, weapons).
_PROVISIONAL: dict[str, tuple[int, int, int, int, int, int, list[tuple[str, list[str]]]]] = {
    "Sa'ar": (16, 6, 4, 1, 1, 0, [("beam-2", _FWD), ("beam-3", _ALL)]),
    "Ra'am": (26, 6, 8, 2, 1, 0, [("beam-2", _FWD), ("beam-2", _FWD), ("beam-3", _ALL)]),
    "Tzayad": (40, 6, 9, 3, 2, 0, [("beam-1", _FWD), ("beam-2", _FWD), ("beam-3", _ALL)]),
    "Kashat-E": (60, 6, 16, 4, 2, 0, [("beam-1", _FWD), ("beam-2", _FWD), ("beam-3", _ALL)]),
    "Yerushalayim-L": (90, 4, 23, 6, 3, 1, [("beam-1", _FWD)] * 2 + [("beam-2", _FWD)] * 2),
    "Barak": (120, 6, 22, 8, 3, 1, [("beam-1", _FWD)] * 3 + [("beam-2", _FWD)] * 2),
    "Sabra": (160, 4, 35, 10, 4, 2, [("beam-1", _FWD)] * 4 + [("beam-2", _FWD)] * 2),
    "Kineret": (110, 4, 23, 4, 2, 0, [("beam-2", _FWD), ("beam-2", ["AS", "A", "AP"])]),
    "Phyaa": (14, 6, 3, 1, 1, 0, [("pulser", _FWD)]),
    "Tyaph": (18, 6, 3, 2, 1, 0, [("pulser", _ALL)]),
    "Phuun": (24, 6, 3, 2, 1, 0, [("pulser", _FWD), ("plasma-bolt", _FWD)]),
    "Dinth": (41, 6, 7, 4, 1, 0, [("pulser", _ALL), ("pulser", ["F"])]),
    "Silith": (34, 6, 9, 3, 1, 0, [("pulser", _FWD)] * 2),
    "Tsaara": (58, 4, 10, 5, 2, 0, [("pulser", _ALL)] * 2 + [("pulser", ["F"])]),
    "Huulth": (70, 4, 12, 7, 2, 0, [("pulser", _ALL)] * 2 + [("pulser", _FWD)] * 2),
    "Ptath": (132, 4, 24, 16, 3, 0, [("pulser", _ALL)] * 2 + [("pulser", _FWD)] * 5),
}

_used_provisional: set[str] = set()


def _provisional(name: str, faction: str) -> dict[str, Any]:
    mass, thrust, hull, armour, fcs, screens, weapons = _PROVISIONAL[name]
    systems: list[dict[str, Any]] = [
        {"id": f"w-{i}", "kind": "weapon", "weapon": w, "arcs": arcs}
        for i, (w, arcs) in enumerate(weapons, 1)
    ]
    systems.append({"id": "pd-a", "kind": "pd"})
    if faction == "phalon":
        systems.append({"id": "veil", "kind": "vapour-veil"})
    if name == "Kineret":
        for i, bay in enumerate("abcd"):
            systems.append(
                {
                    "id": f"bay-{bay}",
                    "kind": "bay",
                    "squadron": {"name": f"LRF {i + 1}", "unit": "long-range-fighter", "size": 6},
                }
            )
        systems += [
            {"id": "tube-a", "kind": "launch-tube"},
            {"id": "tube-b", "kind": "launch-tube"},
        ]
    return {
        "format": "admiralty-design/1",
        "name": name,
        "faction": faction,
        "mass": mass,
        "thrust": thrust,
        "hull": {"boxes": hull},
        "armour": {"layers": [armour]},
        "screens": screens,
        "fire_controls": fcs,
        "command": ["bridge", "life-support", "core"],
        "systems": systems,
        "provisional": True,
    }


def designs(slug: str) -> dict[str, dict[str, Any]]:
    """Class name → design document of a faction's catalogue ({} when the file is absent)."""
    path = CATALOGUE / f"{slug}.json"
    if not path.exists():
        return {}
    return {c["name"]: c for c in json.loads(path.read_text(encoding="utf-8"))["classes"]}


def build_fleet(slug: str, roster: tuple[tuple[str, int], ...], side: str) -> list[ShipState]:
    """Ship states for ``roster`` (class, count), ids ``<side>1…``, names ``<class> <n>``."""
    catalogue = designs(slug)
    ships: list[ShipState] = []
    for name, count in roster:
        design = catalogue.get(name)
        if design is None:
            _used_provisional.add(name)
            design = _provisional(name, slug)
        for n in range(1, count + 1):
            ships.append(
                ShipState.from_design(
                    design, ship_id=f"{side}{len(ships) + 1}", side=side, name=f"{name} {n}"
                )
            )
    return ships


def qatzrin_5th() -> list[ShipState]:
    """Qatzrin 5th long-range incursion fleet (13 ships), side ``qatzrin``."""
    return build_fleet("qatzrin", QATZRIN_5TH, "qatzrin")


def phalon_68th() -> list[ShipState]:
    """Phalon 68th reprisal fleet (16 ships), side ``phalon``."""
    return build_fleet("phalon", PHALON_68TH, "phalon")


def provisional_classes() -> list[str]:
    """Classes built from this module's provisional stats so far (not in the catalogue)."""
    return sorted(_used_provisional)
