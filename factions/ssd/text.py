"""What a ship system diagram says: the stats line, and the icon text and label of each
system (core systems synthesised from the design's fields, and ``design["systems"]``
entries), in the current language. :mod:`factions.ssd.draw` draws them.

Sources: ``factions/designs/schema.py`` (the ``admiralty-design/1`` shape and the ids the engine
synthesises), ``battles.rules.weapon_catalogue`` (weapon ids), rules §4 (crew ``ceil(mass / 20)``).
"""

from __future__ import annotations

from django.utils.translation import gettext

from battles.rules.ships import crew_factors
from factions.designs.schema import COMMAND_SYSTEMS, design_system_ids


def sensors_name(kind: str) -> str:
    """The sensor suite's name in the current language (``standard`` or ``advanced``,
    factions/designs/schema.py; any other value as written)."""
    names = {"standard": gettext("standard sensors"), "advanced": gettext("advanced sensors")}
    return names.get(kind, gettext("%(kind)s sensors") % {"kind": kind})


def stats_line(design: dict) -> str:
    mass = int(design.get("mass") or 0)
    parts = [
        gettext("Mass %(n)s") % {"n": mass},
        gettext("Thrust %(n)s") % {"n": design.get("thrust", 0)},
    ]
    if design.get("ftl"):
        parts.append(gettext("FTL"))
    parts += [
        gettext("Screens %(n)s") % {"n": design.get("screens", 0)},
        gettext("FC %(n)s") % {"n": design.get("fire_controls", 0)},
        sensors_name(design.get("sensors", "standard")),
        gettext("ECM %(n)s") % {"n": design.get("ecm", 0)},
        gettext("Crew %(n)s") % {"n": crew_factors(mass) if mass else 0},
    ]
    if design.get("points") is not None:
        parts.append(gettext("Points %(n)s") % {"n": design["points"]})
    if design.get("tech_cost"):
        parts.append(gettext("Tech %(n)s") % {"n": design["tech_cost"]})
    power = design.get("power") or {}
    if power.get("power_points") or power.get("biomass"):
        parts.append(
            gettext("PP %(pp)s / biomass %(biomass)s")
            % {"pp": power.get("power_points", 0), "biomass": power.get("biomass", 0)}
        )
    return " · ".join(parts)


def core_systems(design: dict) -> list[tuple[str, str, str]]:
    """(system id, icon text, label) for the systems that are fields, not list entries.

    Drive, fire controls, screens and command systems are the ids the engine synthesises
    (``design_system_ids``), so a box crossed out here is one a battle can destroy; FTL,
    advanced sensors and ECM are drawn too but are not engine systems.
    """
    listed = {s.get("id") for s in design.get("systems") or []}
    synthesised = [sid for sid in design_system_ids(design) if sid not in listed]

    def numbered(prefix: str) -> list[tuple[str, int]]:
        return [
            (sid, int(sid.removeprefix(prefix)))
            for sid in synthesised
            if sid.startswith(prefix) and sid.removeprefix(prefix).isdigit()
        ]

    out: list[tuple[str, str, str]] = []
    if "drive" in synthesised:
        out.append(("drive", str(design.get("thrust", 0)), gettext("drive")))
    if design.get("ftl"):
        out.append(("ftl", gettext("FTL"), gettext("FTL drive")))
    for sid, i in numbered("fc-"):
        out.append((sid, gettext("FC"), gettext("fire control %(n)d") % {"n": i}))
    for sid, i in numbered("screen-"):
        out.append((sid, gettext("S"), gettext("screen %(n)d") % {"n": i}))
    if design.get("sensors", "standard") != "standard":
        out.append(("sensors", gettext("AS"), sensors_name(design["sensors"])))
    for i in range(1, int(design.get("ecm") or 0) + 1):
        out.append((f"ecm-{i}", gettext("ECM"), gettext("ECM %(n)d") % {"n": i}))
    for name in synthesised:
        if name in COMMAND_SYSTEMS:
            short = {"bridge": "BR", "life-support": "LS", "core": "CO"}[name]
            out.append((name, short, kind_label(name)))
    return out


ICON_TEXT = {
    "pd": "PD",
    "adaf": "ADAF",
    "magazine": "MAG",
    "bay": "BAY",
    "launch-tube": "LT",
    "marines": "M",
}


def kind_label(kind: str) -> str:
    """A system kind or command system in the current language (the id as written when
    unknown)."""
    labels = {
        "pd": gettext("point defence"),
        "adaf": gettext("area defence"),
        "launch-tube": gettext("launch tube"),
        "bridge": gettext("bridge"),
        "life-support": gettext("life support"),
        "core": gettext("core"),
    }
    return labels.get(kind, kind)


def weapon_text(weapon: str) -> str:
    """Short icon text for an engine weapon id (``battles.rules.weapon_catalogue``)."""
    if weapon.startswith("beam-"):
        return "B" + weapon[5:]
    if weapon.startswith("kgun"):
        return "K" + weapon.rsplit("-", 1)[-1]
    if weapon.startswith("graser-"):
        return "G" + weapon[7:]
    if weapon.startswith("missile-"):
        return "MS" + weapon[8:9].upper()
    words = weapon.split("-")
    return "".join(w[0] for w in words).upper() if len(words) > 1 else weapon[:3].upper()


def system_text(system: dict) -> tuple[str, str]:
    """(icon text, label) for one entry of ``design["systems"]``."""
    kind = system.get("kind", "?")
    if kind == "weapon":
        weapon = str(system.get("weapon", "?"))
        if system.get("class"):
            weapon = gettext("%(weapon)s class %(n)s") % {"weapon": weapon, "n": system["class"]}
        return weapon_text(str(system.get("weapon", "?"))), weapon
    if kind == "magazine":
        return "MAG", gettext("magazine (%(n)s)") % {"n": system.get("capacity", 0)}
    if kind == "marines":
        return f"M{system.get('squads', 1)}", gettext("marines ×%(n)s") % {
            "n": system.get("squads", 1)
        }
    if kind == "bay":
        sq = system.get("squadron") or {}
        return "BAY", sq.get("name") or gettext("bay (empty)")
    return ICON_TEXT.get(kind, kind[:3].upper()), kind_label(kind)
