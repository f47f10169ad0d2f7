"""Fleet lists as text: the notation the seed uses for its fleets, parsed into entries.

Source: the fleet lists of seed 000 (the 5th Qatzrin long-range
incursion fleet, the Phalon 68th reprisal fleet and the Ganesha long-range force of the
Miranda report). One unit per line::

    3 corvettes classe Sa'ar            <count> <type word> classe <Class>
    - 2 protecteurs classe Dinth        a leading "- " bullet is allowed
    1 porte-nef lourd classe Kajna
    3                                   a count alone on its line counts the next line
    escadrilles de chasseurs Mijna      squadrons of 6 craft, carried by the carrier above
    1 escadrille d'intercepteurs Avna
    La station Petra IV fournie :       a line ending in ":" is a heading
    1 escadrille de chasseurs Nith      (no carrier above since the heading: based there)
    1 Faisceau classe 2                 a class-2 beam battery (colony or station)

Beam batteries are class 1, 2 or 3 (rules §8); squadron names ("Mijna") are
checked against the names given in ``light_unit_names`` when there are some.

Readings (the seed is not explicit):
- squadron lines attach to the ship line just above them when that line is a carrier
  (type word "porte-nef…" or "carrier"); under a line of N carriers each carrier carries the
  listed squadrons (the Miranda report speaks of the Brima's interceptor squadrons, plural,
  for one Avna line under two Brima);
- lines with no count, no "classe" and no "escadrille" are prose or headings and are
  ignored; ``#`` starts a comment line.

Parsing is pure Python (no database): ``fleet_list_parse(text, class_names=…,
light_unit_names=…)`` resolves class and squadron names against the names given and raises
:class:`FleetListError` with every error.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from django.utils.translation import gettext as _

MAX_COUNT = 100
"""Largest count accepted on one line (ships or squadrons)."""

SQUADRON_SIZE = 6
"""Craft per light-unit squadron (rules §9)."""

# Light-unit words of the seed, longest first, with the kind used by LightUnitGroup.Kind.
_LIGHT_UNIT_KINDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), kind)
    for pattern, kind in (
        (r"chasseurs?\s+(?:à|a)\s+long\s+rayon\s+d'action\b", "long-range-fighter"),
        (r"chasseurs?\s+lourds?\b", "heavy-fighter"),
        (r"chasseurs?\b", "fighter"),
        (r"intercepteurs?\b", "interceptor"),
        (r"drones?\b", "drone"),
        (r"canonni[eè]res?\b", "gunboat"),
    )
)
_BULLET = re.compile(r"^[-*•–]\s+")
_COUNT_ONLY = re.compile(r"^\d+$")
_COUNTED = re.compile(r"^(\S+)\s+(.*)$")
_SQUADRON = re.compile(r"^escadrilles?\s+(?:de\s+|d')(.*)$", re.IGNORECASE)
_BATTERY = re.compile(r"^(?:batteries?\s+de\s+)?faisceaux?\s+classe\s+(\d+)$", re.IGNORECASE)
BEAM_CLASSES = (1, 2, 3)
"""Beam classes a battery may have (rules §8: beam classes 1 to 3)."""
_SHIP = re.compile(r"^(?:(.*?)\s+)?classe?\s+(\S.*)$", re.IGNORECASE)
_UNIT_WORD = re.compile(r"\bclasse?\b|\bescadrilles?\b", re.IGNORECASE)
_CARRIER_WORD = re.compile(r"porte|carrier", re.IGNORECASE)
_EXAMPLE = '"3 corvettes classe Sa\'ar" or "1 escadrille de chasseurs Mijna"'


@dataclass(frozen=True)
class LightUnitEntry:
    """``count`` squadrons (of ``SQUADRON_SIZE`` craft) or batteries of one type.

    ``kind`` is a ``LightUnitGroup.Kind`` value (fighter, heavy-fighter, long-range-fighter,
    interceptor, drone, gunboat, battery); ``unit_type`` the name the list gives ("Mijna")
    or, for a battery, the weapon id (``beam-2``); ``section`` the heading above the line
    ("La station Petra IV fournie") for units based there, empty for carried squadrons.
    """

    line: int
    count: int
    kind: str
    unit_type: str
    section: str = ""

    def as_text(self) -> str:
        """The entry in the list notation (one line)."""
        if self.kind == "battery":
            return f"{self.count} Faisceau classe {self.unit_type.removeprefix('beam-')}"
        words = {
            "long-range-fighter": "chasseurs à long rayon d'action",
            "heavy-fighter": "chasseurs lourds",
            "fighter": "chasseurs",
            "interceptor": "intercepteurs",
            "drone": "drones",
            "gunboat": "canonnières",
        }[self.kind]
        noun = "escadrille" if self.count == 1 else "escadrilles"
        of = "d'" if words[0] in "aeiouy" else "de "
        return f"{self.count} {noun} {of}{words} {self.unit_type}".rstrip()


@dataclass(frozen=True)
class ShipEntry:
    """``count`` ships of class ``class_name`` (canonical spelling when names were given).

    ``light_units`` are carried by *each* of the ``count`` ships (carriers only).
    """

    line: int
    count: int
    type_word: str
    class_name: str
    light_units: tuple[LightUnitEntry, ...] = ()

    @property
    def is_carrier(self) -> bool:
        """True when the type word names a carrier (porte-nef, carrier)."""
        return bool(_CARRIER_WORD.search(self.type_word))

    def as_text(self) -> str:
        """The entry and its squadrons in the list notation."""
        head = " ".join(w for w in (str(self.count), self.type_word) if w)
        lines = [f"{head} classe {self.class_name}"]
        lines += [lu.as_text() for lu in self.light_units]
        return "\n".join(lines)


@dataclass(frozen=True)
class FleetList:
    """A parsed fleet list: ship lines (with carried squadrons) and light units based
    elsewhere (station squadrons, colony batteries)."""

    ships: tuple[ShipEntry, ...]
    light_units: tuple[LightUnitEntry, ...] = ()

    @property
    def ship_count(self) -> int:
        """Number of ships (hulls) the list describes."""
        return sum(e.count for e in self.ships)

    def as_text(self) -> str:
        """The list in the notation, one unit per line; parses back to an equal list
        (line numbers aside)."""
        # Units based nowhere in particular come first: after a carrier they would be carried.
        parts = [lu.as_text() for lu in self.light_units if not lu.section]
        parts += [e.as_text() for e in self.ships]
        for section in dict.fromkeys(lu.section for lu in self.light_units if lu.section):
            parts.append(f"{section} :")
            parts += [lu.as_text() for lu in self.light_units if lu.section == section]
        return "\n".join(parts) + "\n"


@dataclass(frozen=True)
class LineError:
    """One problem of a fleet list, at a 1-based ``line``."""

    line: int
    message: str

    def __str__(self) -> str:
        return _("line %(line)s: %(message)s") % {"line": self.line, "message": self.message}


class FleetListError(ValueError):
    """A fleet list that cannot be used; ``errors`` holds every problem found, in order."""

    def __init__(self, errors: Iterable[LineError]) -> None:
        self.errors: list[LineError] = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


def _normalise(line: str) -> str:
    """Typographic apostrophes to ASCII, whitespace collapsed, bullet removed."""
    line = " ".join(line.replace("\u2019", "'").replace("\u00a0", " ").split())
    return _BULLET.sub("", line)


def _name_key(name: str) -> str:
    return _normalise(name).casefold()


@dataclass
class _ClassIndex:
    """Case- and apostrophe-insensitive lookup of class names, with suggestions."""

    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, class_names: Iterable[str]) -> _ClassIndex:
        return cls({_name_key(n): n for n in class_names})

    def resolve(self, name: str) -> str | None:
        return self.names.get(_name_key(name))

    def suggest(self, name: str) -> str | None:
        close = difflib.get_close_matches(_name_key(name), list(self.names), n=1, cutoff=0.6)
        return self.names[close[0]] if close else None


def _count(token: str, line_no: int, errors: list[LineError]) -> int | None:
    """The count ``token`` as an int in 1..MAX_COUNT, or None after recording an error."""
    if token.isdigit() and 1 <= int(token) <= MAX_COUNT:
        return int(token)
    errors.append(
        LineError(
            line_no,
            _('bad count "%(count)s" (a whole number from 1 to %(max)s)')
            % {"count": token, "max": MAX_COUNT},
        )
    )
    return None


def _light_unit(rest: str, line_no: int, count: int, section: str) -> LightUnitEntry | None:
    """A squadron or battery line (without its count), or None if ``rest`` is neither."""
    if m := _BATTERY.match(rest):
        return LightUnitEntry(line_no, count, "battery", f"beam-{m.group(1)}", section)
    if not (m := _SQUADRON.match(rest)):
        return None
    words = m.group(1)
    for pattern, kind in _LIGHT_UNIT_KINDS:
        if km := pattern.match(words):
            return LightUnitEntry(line_no, count, kind, words[km.end() :].strip(), section)
    return None


def fleet_list_parse(
    text: str,
    *,
    class_names: Iterable[str] | None = None,
    light_unit_names: Iterable[str] | None = None,
) -> FleetList:
    """Parse a fleet list in the seed's notation (see the module docstring).

    ``class_names``: the ship classes the list may use (e.g. a faction's classes); each
    class is then written with its canonical spelling, matched regardless of case and of
    typographic apostrophes. ``None`` accepts any class name as written.
    ``light_unit_names``: likewise for the squadron names ("Mijna", "Avna"); a squadron line
    without a name ("1 escadrille de chasseurs") is always accepted. ``None`` accepts any.

    Returns a :class:`FleetList`; line numbers are 1-based lines of ``text``.
    Raises :class:`FleetListError` listing every error: unknown class or light unit (with
    the closest known name, by difflib), a beam battery of a class other than 1–3
    (rules §8), bad or missing count, a count with no unit after it, an
    unreadable unit line, and an empty list (no ship line at all).
    """
    index = _ClassIndex.of(class_names) if class_names is not None else None
    units = _ClassIndex.of(light_unit_names) if light_unit_names is not None else None
    errors: list[LineError] = []
    ships: list[ShipEntry] = []
    based: list[LightUnitEntry] = []
    carried: dict[int, list[LightUnitEntry]] = {}  # index in ships -> squadrons
    carrier: int | None = None  # index in ships of the carrier squadrons attach to
    section = ""
    pending: tuple[int, int] | None = None  # (line, count) of a count alone on its line
    lines = text.splitlines()

    def dangling(at: tuple[int, int]) -> None:
        errors.append(
            LineError(at[0], _('count "%(count)s" is not followed by a unit') % {"count": at[1]})
        )

    for line_no, raw in enumerate(lines, start=1):
        line = _normalise(raw)
        if not line or line.startswith(("#", "//")):
            continue
        if _COUNT_ONLY.match(line):
            if pending:
                dangling(pending)
            n = _count(line, line_no, errors)
            pending = (line_no, n) if n is not None else None
            continue
        count: int | None
        if pending:
            (count_line, count), rest = pending, line
            pending = None
            if (m := _COUNTED.match(line)) and m.group(1).isdigit():
                msg = _("a second count (the count on line %(line)s applies here)") % {
                    "line": count_line
                }
                errors.append(LineError(line_no, msg))
                continue
        else:
            m = _COUNTED.match(line)
            head = m.group(1) if m else line
            if not _UNIT_WORD.search(line) and not head.isdigit():
                if line.endswith(":"):  # a heading: what follows is based there
                    section, carrier = line[:-1].strip(), None
                continue  # prose
            if m is None or not re.match(r"^[-+]?\d", head):
                errors.append(
                    LineError(
                        line_no,
                        _('missing count in "%(line)s" (expected %(example)s)')
                        % {"line": line, "example": _EXAMPLE},
                    )
                )
                continue
            count, rest = _count(head, line_no, errors), m.group(2)
            if count is None:
                continue
        if (lu := _light_unit(rest, line_no, count, section)) is not None:
            if lu.kind == "battery":
                beam_class = int(lu.unit_type.removeprefix("beam-"))
                if beam_class not in BEAM_CLASSES:
                    msg = _(
                        "no class-%(class)s beam battery: beams are class 1, 2 or 3 "
                        "(rules/ft-incursion.md §8)"
                    ) % {"class": beam_class}
                    errors.append(LineError(line_no, msg))
                    continue
                lu = replace(lu, unit_type=f"beam-{beam_class}")
            elif units is not None and lu.unit_type:
                if (known := units.resolve(lu.unit_type)) is None:
                    hint = units.suggest(lu.unit_type)
                    msg = (
                        _('unknown light unit "%(name)s" (did you mean "%(hint)s"?)')
                        if hint
                        else _('unknown light unit "%(name)s"')
                    ) % {"name": lu.unit_type, "hint": hint}
                    errors.append(LineError(line_no, msg))
                    continue
                lu = replace(lu, unit_type=known)
            if lu.kind != "battery" and carrier is not None:  # carried, not based
                carried.setdefault(carrier, []).append(replace(lu, section=""))
            else:
                based.append(lu)
            continue
        if not (sm := _SHIP.match(rest)):
            errors.append(
                LineError(
                    line_no,
                    _('cannot read "%(line)s" (expected %(example)s)')
                    % {"line": line, "example": _EXAMPLE},
                )
            )
            continue
        type_word, class_name = (sm.group(1) or "").strip(), sm.group(2).strip()
        if index is not None:
            canonical = index.resolve(class_name)
            if canonical is None:
                hint = index.suggest(class_name)
                msg = (
                    _('unknown ship class "%(name)s" (did you mean "%(hint)s"?)')
                    if hint
                    else _('unknown ship class "%(name)s"')
                ) % {"name": class_name, "hint": hint}
                errors.append(LineError(line_no, msg))
                continue
            class_name = canonical
        entry = ShipEntry(line_no, count, type_word, class_name)
        ships.append(entry)
        carrier = len(ships) - 1 if entry.is_carrier else None
    if pending:
        dangling(pending)
    if not ships and not errors:
        errors.append(LineError(max(len(lines), 1), _("the fleet list has no ships")))
    if errors:
        raise FleetListError(errors)
    return FleetList(
        ships=tuple(
            ShipEntry(e.line, e.count, e.type_word, e.class_name, tuple(carried.get(i, ())))
            for i, e in enumerate(ships)
        ),
        light_units=tuple(based),
    )
