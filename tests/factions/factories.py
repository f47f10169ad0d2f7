"""Design documents shared by the import, design-command and design-API tests."""

from factions.designs import validation


def ftl_ship(**overrides):
    """A small ftLibShip ship touching most mappings."""
    ship = {
        "name": "Test Cruiser",
        "class": "Heavy Cruiser",
        "mass": 60,
        "points": 200,
        "hull": {"points": 18, "rows": 4, "stealth": "0", "streamlining": "none"},
        "armour": [[4, 0], [2, 0]],  # innermost first
        "systems": [
            {"name": "drive", "thrust": 4, "advanced": False, "id": "d1"},
            {"name": "ftl", "advanced": False, "id": "f1"},
            {"name": "fireControl", "id": "fc1"},
            {"name": "fireControl", "id": "fc2"},
            {"name": "screen", "area": False, "advanced": False, "id": "s1"},
            {"name": "magazine", "capacity": 3, "id": "MAG9"},
            {"name": "hangar", "id": "H1", "isRack": False},
            {"name": "bay", "type": "cargo", "capacity": 4, "id": "cargo1"},
        ],
        "weapons": [
            {"name": "beam", "class": 1, "leftArc": "F", "numArcs": 6, "id": "w1"},
            {"name": "beam", "class": 3, "leftArc": "FP", "numArcs": 3, "id": "w2"},
            {"name": "beam", "class": 2, "leftArc": "AP", "numArcs": 3, "id": "w3"},
            {"name": "pds", "id": "p1"},
            {"name": "torpedoPulse", "leftArc": "F", "numArcs": 1, "id": "t1"},
            {"name": "frobnicator", "id": "x1"},
        ],
        "ordnance": [
            {"name": "salvoLauncher", "leftArc": "FP", "numArcs": 3, "magazine": "MAG9"},
        ],
        "fighters": [{"type": "standard", "mods": ["heavy"], "hangar": "H1"}],
        "orientation": "alpha",
    }
    ship.update(overrides)
    return ship


def valid_design(name="Hanit", faction="qatzrin"):
    """A design whose systems add up to its mass (searching the mass is simplest)."""
    design = {
        "format": "admiralty-design/1",
        "name": name,
        "faction": faction,
        "type_word": "frégate",
        "mass": 10,
        "thrust": 6,
        "ftl": True,
        "hull": {"boxes": 9, "rows": [3, 2, 2, 2]},
        "armour": {"layers": [2]},
        "fire_controls": 1,
        "systems": [
            {"id": "beam-a", "kind": "weapon", "weapon": "beam-2", "arcs": ["F", "FS", "FP"]},
            {"id": "pd-a", "kind": "pd"},
        ],
        "provisional": True,
        "rationale": "test frigate",
    }
    for mass in range(10, 100):
        design["mass"] = mass
        try:
            if validation.design_mass(design) == mass:
                return design
        except ValueError:
            continue
    raise AssertionError("no mass fits")
