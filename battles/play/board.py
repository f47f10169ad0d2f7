"""The board and the log of an engine-fought battle as one viewer may see them,
built from the stored event log alone (``battles.models.Event`` rows).

Perspectives (:class:`Viewer`, chosen by ``battles.access.battle_perspective``):

- ``all`` (staff, the campaign's organisers): every ship, unit, event and die;
- ``side`` (a player of one side): their own ships and light units in full; enemy ships
  as rules §5 allows — a **blip** (1 per started 50 mass, no heading, no name) while out
  of sensor contact, and within contact (``contact`` / ``contact-lost`` events of their
  side, phase 7) their position, heading and class *only if their side had already met
  it* (the contact report's ``class``, else "unknown class"); enemy light units as
  0-blip markers. Log lines: their own ships' (orders included), what is fired at them,
  enemy ships' doings while in contact; enemy names are never printed. A blip's doings
  to them are told without its systems, weapons or dice (``battles.log.veiled``),
  and an enemy's refused fire (nothing happened) not at all;
- ``public`` (a chronicler, any other user or the public): what a player of neither side
  would see of the published battle — everything except the ships of hidden fleets
  (``hidden``: their engine ids), which are neither drawn nor named.

Positions come from the ``deploy`` event (phase 0: ``positions``), ``move`` (phase 5:
``path``, ``heading``), ``launch`` and ``light-unit-move`` (``to``); ships leave the
table on ``damage-destroyed``, ``damage-captured``, ``withdraw``; units on
``light-unit-losses`` with no craft left, ``light-unit-spent`` and ``land``.

The result (:func:`board_view`) is JSON for ``static/js/battle-board.js``:
``{"moments": [{"turn", "phase"}], "frames": [[marker]], "fire": [[[from, to]]],
"log": [{"m", "text", "kind"}], "bounds": [x0, y0, x1, y1], "sides": {...}, "layout"}``,
one frame per moment (a game turn and phase in the log); a marker is ``{"id", "x", "y",
"h" (heading 0–5 or null), "label", "side", "kind" ("ship"|"blip"|"unit"), "own"}``;
``layout`` is where the script draws them and writes their names
(``battles.log.battle_map.board_layout``: the script computes no geometry). A
``side`` viewer gets the enemy's units under its own opaque keys (``contact-<n>``,
``battles.play.contacts``) in ids, fire lines and log lines, never their engine ids.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_lazy

from battles.log.battle_map import board_layout
from battles.log.lines import event_line
from battles.log.names import LogNames
from battles.log.veiled import VEILED_KINDS, veiled_line
from battles.play.contacts import ContactKeys
from battles.refs import owner_ref
from factions.models import LightUnitGroup

__all__ = ["Viewer", "board_view"]

#: A launched unit's name on the board, by the engine weapon id it attacks with (or its
#: family, the id's first word): the reader's words for the kind, not the engine's id.
_LAUNCHED_WORDS = {
    "fighter-interceptor": LightUnitGroup.Kind.INTERCEPTOR.label,
    "fighter-heavy": LightUnitGroup.Kind.HEAVY_FIGHTER.label,
    "fighter-long-range": LightUnitGroup.Kind.LONG_RANGE_FIGHTER.label,
    "fighter": LightUnitGroup.Kind.FIGHTER.label,
    "drone": LightUnitGroup.Kind.DRONE.label,
    "gunboat": LightUnitGroup.Kind.GUNBOAT.label,
    "missile": gettext_lazy("missiles"),
}


def launched_label(weapon: Any, craft: Any) -> str:
    """A launched unit's name on the board: its kind in the reader's words and its craft,
    "Long-range fighters ×6"; an unknown weapon id stays as the engine wrote it."""
    weapon = str(weapon or "?")
    words = _LAUNCHED_WORDS.get(weapon) or _LAUNCHED_WORDS.get(weapon.split("-")[0])
    return f"{capfirst(str(words)) if words else weapon} ×{craft if craft is not None else '?'}"


_FIRE_KINDS = ("fire", "point-defence", "attack", "missile-strike", "dogfight")
_ALWAYS = ("deploy", "initiative", "initiative-roll", "result", "auto-orders")
_GONE = ("damage-destroyed", "damage-captured", "withdraw")
_BLIP_MASS = 50  # rules §5
# What a side sees an enemy ship in contact do (§5 shows "approximate hull damage", not
# which systems failed or where its crew went).
_SEEN_OF_ENEMY = frozenset(
    {
        "move",
        "fire",
        "launch",
        "attack",
        "missile-strike",
        "dogfight",
        "point-defence",
        "withdraw",
        "damage-destroyed",
        "damage-captured",
        "light-unit-move",
        "light-unit-losses",
    }
)


@dataclass(frozen=True)
class Viewer:
    """Who looks: ``mode`` ``all`` / ``side`` / ``public``; ``side`` the faction slug of
    a ``side`` viewer; ``hidden`` engine ship ids a ``public`` viewer never sees;
    ``battle`` the battle's pk (a ``side`` viewer's keys for enemy units,
    ``battles.play.contacts``)."""

    mode: str
    side: str | None = None
    hidden: frozenset[str] = frozenset()
    battle: int | None = None


@dataclass
class _Row:
    """An event row with the attributes ``log_text.event_line`` reads."""

    game_turn: int
    phase: int
    kind: str
    summary: str
    data: dict[str, Any]


@dataclass
class _Board:
    ships: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> x, y, h, gone
    units: dict[str, dict[str, Any]] = field(default_factory=dict)
    contacts: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # side->id->report


def _owner(ref: Any) -> str | None:
    """The engine id of the ship or platform a ship, platform or light-unit id belongs to
    (``ship-3.bay-1-2`` → ship-3, ``lu-6.bay-a-1`` → lu-6)."""
    return owner_ref(ref)


# What a blip does that its ordinary line may tell (no system or weapon in it).
_BLIP_SAFE = frozenset(
    {"attack", "dogfight", "light-unit-move", "light-unit-losses", "withdraw"} | set(_GONE)
)
# Kinds whose actor is a light unit (``data["unit"]``), not a ship.
_BY_UNIT = ("attack", "missile-strike", "dogfight", "light-unit-move", "intent", "attack-wreck")


def _actor(row: _Row) -> str | None:
    """The engine id of the ship or platform doing what ``row`` tells (a unit's carrier)."""
    return _owner(row.data.get("unit" if row.kind in _BY_UNIT else "ship"))


def _refs(data: Mapping[str, Any]) -> set[str]:
    found = set()
    for key in ("ship", "target", "unit", "attached_to", "home", "system"):
        owner = _owner(data.get(key))
        if owner:
            found.add(owner)
    return found


def _rows(events: Iterable[Any]) -> list[_Row]:
    rows = []
    for e in events:
        get = e.get if isinstance(e, Mapping) else lambda k, e=e: getattr(e, k)
        data = get("data")
        rows.append(
            _Row(
                get("game_turn"),
                get("phase"),
                get("kind"),
                get("summary") or "",
                data if isinstance(data, dict) else {},
            )
        )
    return rows


class _Looker:
    """What one viewer sees of the board and the log as the events go by."""

    def __init__(
        self,
        viewer: Viewer,
        setup: Mapping[str, Any],
        side_names: Mapping[str, str],
    ):
        ships = setup.get("ships") or {}
        known = set((setup.get("known_classes") or {}).get(viewer.side or "", ()))
        self.viewer = viewer
        self.specs = ships  # setup row: id -> {name, side, class, design, ...}
        self.board = _Board()
        self.names = LogNames(
            ships={sid: s.get("name", sid) for sid, s in ships.items() if sid not in viewer.hidden},
            sides=dict(side_names),
        )
        self.secret_words: list[str] = []
        # A side knows enemy units by opaque keys only (never their engine ids).
        self.keys = ContactKeys.from_setup(
            viewer.battle, viewer.side if viewer.mode == "side" else None, setup
        )
        if viewer.mode == "side":
            for sid, spec in ships.items():
                if spec.get("side") != viewer.side:
                    self.names.ships[sid] = self._enemy_label(sid)
                    self.secret_words.append(spec.get("name") or "")
                    if spec.get("class") not in known:
                        self.secret_words.append(spec.get("class") or "")
        elif viewer.mode == "public":
            self.secret_words = [ships[s].get("name") or "" for s in viewer.hidden if s in ships]
        words = sorted({w for w in self.secret_words if w}, key=len, reverse=True)
        self.secret = (
            re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in words)) if words else None
        )

    # -- who is who --------------------------------------------------------------------

    def own(self, ship_id: str | None) -> bool:
        if self.viewer.mode != "side":
            return True
        spec = self.specs.get(ship_id or "")
        return bool(spec) and spec.get("side") == self.viewer.side

    def in_contact(self, ship_id: str) -> dict[str, Any] | None:
        return self.board.contacts.get(self.viewer.side or "", {}).get(ship_id)

    def _enemy_label(self, ship_id: str) -> str:
        report = self.in_contact(ship_id)
        if report is None:
            return gettext("blip %(id)s") % {"id": self.keys.number(ship_id)}
        shown = report.get("class") or gettext("unknown class")
        return f"{shown} ({self.keys.number(ship_id)})"

    def blip(self, ref: str | None) -> bool:
        """Whether ``ref`` is, to a ``side`` viewer, an enemy seen only as a blip."""
        return (
            self.viewer.mode == "side"
            and ref is not None
            and not self.own(ref)
            and self.in_contact(ref) is None
        )

    def _blips(self, ship_id: str) -> int:
        mass = (self.specs.get(ship_id, {}).get("design") or {}).get("mass") or 0
        return max(1, math.ceil(int(mass) / _BLIP_MASS))

    # -- the log -----------------------------------------------------------------------

    def visible(self, row: _Row) -> bool:
        mode, data = self.viewer.mode, row.data
        if mode == "all":
            return True
        refs = _refs(data)
        if mode == "public":
            return row.kind != "setup" and not refs & self.viewer.hidden
        if row.kind in _ALWAYS:
            return True
        if row.kind in ("contact", "contact-lost"):
            return data.get("side") == self.viewer.side
        if row.kind == "setup" or not refs:
            return False
        if self.own(_owner(data.get("ship"))) or self.own(_owner(data.get("unit"))):
            return True  # our own ship or unit: everything about it
        if row.kind == "fire-refused":
            return False  # an enemy's shot that never happened: nothing to see
        if any(self.own(r) for r in refs):
            return row.kind in _SEEN_OF_ENEMY  # done to us
        return row.kind in _SEEN_OF_ENEMY and all(self.in_contact(r) is not None for r in refs)

    def line(self, row: _Row) -> str | None:
        """``row``'s log line for this viewer; ``None``: nothing to print (a blip's doing
        that cannot be told without naming its systems)."""
        if self.blip(_actor(row)):
            if row.kind not in VEILED_KINDS:
                return event_line(row, self.names) if row.kind in _BLIP_SAFE else None
            veiled = veiled_line(row, self.names)
            return None if veiled is None else self.keys.rekey(self._unsay(veiled))
        if row.kind == "auto-orders" and isinstance(row.data.get("side"), str):
            side = self.names.sides.get(row.data["side"], row.data["side"])
            return gettext(
                "%(side)s gave no orders in time: its ships take the auto-resolve tactics"
            ) % {"side": side}
        return self.keys.rekey(self._unsay(event_line(row, self.names)))

    def _unsay(self, text: str) -> str:
        return self.secret.sub("?", text) if self.secret is not None else text

    # -- the board ---------------------------------------------------------------------

    def apply(self, row: _Row) -> None:
        data, board = row.data, self.board
        kind = row.kind
        if kind == "deploy":
            for sid, pos in (data.get("positions") or {}).items():
                board.ships[sid] = {"x": pos[0], "y": pos[1], "h": pos[2], "gone": False}
        elif kind == "move" and data.get("ship") in board.ships:
            ship = board.ships[data["ship"]]
            ship["x"], ship["y"] = data["path"][-1]
            ship["h"] = data.get("heading", ship["h"])
            for unit in board.units.values():
                if unit.get("attached_to") == data["ship"]:
                    unit["x"], unit["y"] = ship["x"], ship["y"]
        elif kind in _GONE and data.get("ship") in board.ships:
            board.ships[data["ship"]]["gone"] = True
        elif kind == "launch" and data.get("unit") and data.get("ship") in board.ships:
            host = board.ships[data["ship"]]
            board.units[data["unit"]] = {
                "x": host["x"],
                "y": host["y"],
                "side": self.specs.get(data["ship"], {}).get("side"),
                "owner": data["ship"],
                "label": launched_label(data.get("weapon"), data.get("craft")),
            }
        elif kind == "light-unit-move" and data.get("unit") in board.units:
            unit = board.units[data["unit"]]
            unit["x"], unit["y"] = data.get("to", (unit["x"], unit["y"]))
            unit["attached_to"] = data.get("attached_to")
        elif kind == "light-unit-losses" and data.get("unit") in board.units:
            if not data.get("craft"):
                board.units.pop(data["unit"])
        elif kind in ("light-unit-spent", "land"):
            board.units.pop(data.get("unit"), None)
        elif kind == "contact":
            board.contacts.setdefault(data.get("side"), {})[data.get("ship")] = (
                data.get("report") or {}
            )
            self._relabel(data.get("side"), data.get("ship"))
        elif kind == "contact-lost":
            board.contacts.get(data.get("side"), {}).pop(data.get("ship"), None)
            self._relabel(data.get("side"), data.get("ship"))

    def _relabel(self, side: Any, ship_id: Any) -> None:
        if self.viewer.mode == "side" and side == self.viewer.side and ship_id in self.specs:
            self.names.ships[ship_id] = self._enemy_label(ship_id)

    def frame(self) -> list[dict[str, Any]]:
        markers = []
        for sid, ship in self.board.ships.items():
            if ship["gone"] or sid in self.viewer.hidden:
                continue
            spec = self.specs.get(sid, {})
            own = self.own(sid)
            marker = {
                "id": self.keys.opaque(sid),
                "x": round(ship["x"], 2),
                "y": round(ship["y"], 2),
                "side": spec.get("side"),
                "own": own,
            }
            if own:
                marker.update(h=ship["h"], label=spec.get("name", sid), kind="ship")
            elif self.in_contact(sid) is not None:
                marker.update(h=ship["h"], label=self._enemy_label(sid), kind="ship")
            else:
                marker.update(h=None, label="◆" * self._blips(sid), kind="blip")
            markers.append(marker)
        for uid, unit in self.board.units.items():
            if unit["owner"] in self.viewer.hidden:
                continue
            own = self.own(unit["owner"])
            markers.append(
                {
                    "id": self.keys.opaque(uid),
                    "x": round(unit["x"], 2),
                    "y": round(unit["y"], 2),
                    "h": None,
                    "side": unit["side"],
                    "own": own,
                    "label": unit["label"] if own else "",
                    "kind": "unit",
                }
            )
        return markers


def board_view(
    events: Iterable[Any],
    viewer: Viewer,
    *,
    side_names: Mapping[str, str],
    with_log: bool = True,
    with_layout: bool = True,
) -> dict[str, Any]:
    """The board and log of a battle for ``viewer`` (see the module docstring).
    ``events``: the battle's ``Event`` rows (objects or ``event_rows`` dicts) in order,
    starting with the ``setup`` row; ``side_names``: faction slug -> name. An empty log
    gives no moment. ``with_log=False`` leaves ``log`` and ``fire`` empty (the positions
    only, e.g. for ``battles.log.battle_map``: the log's lines are most of the cost);
    ``with_layout=False`` leaves ``layout`` None (the report's map places its own names,
    by the same rules)."""
    rows = _rows(events)
    setup = next((r for r in rows if r.kind == "setup"), None)
    looker = _Looker(viewer, setup.data if setup else {}, side_names)
    moments: list[dict[str, int]] = []
    frames: list[list[dict[str, Any]]] = []
    fire: list[list[list[str]]] = []
    log: list[dict[str, Any]] = []
    pending: list[_Row] = []  # dice wait for the entry they decide
    for row in rows:
        key = {"turn": row.game_turn, "phase": row.phase}
        if row.kind != "setup" and (not moments or moments[-1] != key):
            if moments:
                frames.append(looker.frame())
            moments.append(key)
            fire.append([])
        if row.kind == "roll":
            pending.append(row)
            continue
        looker.apply(row)
        text = looker.line(row) if with_log and looker.visible(row) else None
        if text is not None:
            m = max(0, len(moments) - 1)
            if not looker.blip(_actor(row)):  # a blip's dice would name its weapons
                for die in pending:
                    log.append({"m": m, "text": looker.line(die), "kind": "roll"})
            log.append({"m": m, "text": text, "kind": row.kind})
            if row.kind in _FIRE_KINDS and moments:
                data = row.data
                by_unit = row.kind in ("attack", "missile-strike", "dogfight")
                source = data.get("unit") if by_unit else data.get("ship")
                target = data.get("unit") if row.kind == "point-defence" else data.get("target")
                if source and target:
                    fire[-1].append([looker.keys.opaque(source), looker.keys.opaque(target)])
        pending.clear()
    if moments:
        frames.append(looker.frame())
    xs = [m["x"] for f in frames for m in f] or [0.0]
    ys = [m["y"] for f in frames for m in f] or [0.0]
    pad = 6.0
    board = {
        "moments": moments,
        "frames": frames,
        "fire": fire,
        "log": log,
        "bounds": [min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad],
        "sides": dict(side_names),
        "viewer": {"mode": viewer.mode, "side": viewer.side},
    }
    # Where the script draws each marker and writes each name: computed on the server,
    # as the report's map computes them (battles.log.battle_map).
    board["layout"] = board_layout(board) if with_layout else None
    return board
