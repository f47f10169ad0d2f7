"""A die's purpose (the engine's ``roll`` event) in the reader's language.

The rules engine (``battles.rules``, no Django) labels every die it rolls with an English
``purpose`` built from a few shapes (``battles.rules.phases.orders``, ``weapons``,
``defence_fire``, ``damage``, ``dice``): a base such as ``"initiative qatzrin, roll 1"``,
``"beam-2 vs Huulth 1"`` or ``"ship-3 threshold row 1 core (6+)"``, then suffixes
``", die i"``, ``", shot i to-hit n+"``, ``", shot i damage"``, ``", re-roll k"``,
``" (as PD)"``, ``" (anti-ship)"``. :func:`roll_purpose` rebuilds it with gettext, the
engine's ship ids and side slugs named; system and weapon ids stay the game's notation.
A base it does not know keeps its English words (only the ship ids named): nothing is lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

from django.utils.translation import gettext, npgettext


class Names(Protocol):
    """What :mod:`battles.log.lines`'s ``LogNames`` offers a purpose."""

    def side(self, slug: object) -> str: ...

    def ids_to_names(self, text: str) -> str: ...


Groups = dict[str, str]

#: Suffixes, peeled off from the right (a re-roll of a shot: ``…, shot 2, re-roll 1``).
_SUFFIXES: tuple[tuple[re.Pattern[str], Callable[[Groups], str]], ...] = (
    (re.compile(r", die (?P<n>\d+)$"), lambda g: gettext(", die %(n)s") % g),
    (re.compile(r", re-roll (?P<n>\d+)$"), lambda g: gettext(", re-roll %(n)s") % g),
    (
        re.compile(r", shot (?P<n>\d+) to-hit (?P<need>\d+)\+$"),
        lambda g: gettext(", shot %(n)s to hit on %(need)s+") % g,
    ),
    (re.compile(r", shot (?P<n>\d+) damage$"), lambda g: gettext(", shot %(n)s damage") % g),
    (re.compile(r", shot (?P<n>\d+)$"), lambda g: gettext(", shot %(n)s") % g),
    (re.compile(r" \(as PD\)$"), lambda g: gettext(" (as point defence)")),
    (re.compile(r" \(anti-ship\)$"), lambda g: gettext(" (anti-ship)")),
)

#: Bases, matched whole once the suffixes are off.
_BASES: tuple[tuple[re.Pattern[str], Callable[[Groups], str]], ...] = (
    (
        re.compile(r"initiative (?P<side>[a-z0-9-]+), roll (?P<n>\d+)"),
        lambda g: gettext("initiative of %(side)s, roll %(n)s") % g,
    ),
    (
        re.compile(r"(?P<ship>\S+) threshold row (?P<row>\d+) (?P<system>\S+) \((?P<need>\d+)\+\)"),
        lambda g: gettext("%(ship)s threshold check, row %(row)s, %(system)s (%(need)s+)") % g,
    ),
    (
        re.compile(r"(?P<ship>\S+) (?P<system>\S+) countdown"),
        lambda g: gettext("%(ship)s %(system)s countdown") % g,
    ),
    (
        re.compile(r"(?P<ship>\S+) core fate \(1-4 shutdown, 5-6 explosion\)"),
        lambda g: gettext("%(ship)s core fate (1-4 shutdown, 5-6 explosion)") % g,
    ),
    (
        re.compile(r"(?P<ship>\S+) EMP hit (?P<n>\d+) system"),
        lambda g: gettext("%(ship)s EMP hit %(n)s, which system") % g,
    ),
    (
        re.compile(r"(?P<ship>\S+) EMP hit (?P<n>\d+) (?P<system>\S+) \((?P<need>\d+)\+\)"),
        lambda g: gettext("%(ship)s EMP hit %(n)s on %(system)s (%(need)s+)") % g,
    ),
    (
        re.compile(
            r"(?P<ship>\S+) damage control (?P<system>\S+) "
            r"\((?P<crew>\d+) crew, (?P<need>\d+)\+\)"
        ),
        lambda g: (
            npgettext(
                "a die's purpose",
                "%(ship)s damage control on %(system)s (%(crew)s crew, %(need)s+)",
                "%(ship)s damage control on %(system)s (%(crew)s crew, %(need)s+)",
                int(g["crew"]),
            )
            % g
        ),
    ),
    (
        re.compile(
            r"(?P<ship>\S+) repel (?P<kind>\S+) (?P<n>\d+) \((?P<by>[^,]+), (?P<need>\d+)\+\)"
        ),
        lambda g: gettext("%(ship)s repels %(kind)s %(n)s (%(by)s, %(need)s+)") % g,
    ),
    (
        re.compile(r"(?P<weapon>\S+) vs (?P<target>.+)"),
        lambda g: gettext("%(weapon)s against %(target)s") % g,
    ),
)


def roll_purpose(purpose: str, names: Names) -> str:
    """``purpose`` (an engine die's label) in the active language, ship ids and side
    slugs named from ``names``. A base shape this module does not know stays English with
    its ship ids named (its known suffixes are still translated)."""
    suffixes: list[str] = []
    base = purpose
    peeled = True
    while peeled:
        peeled = False
        for regex, render in _SUFFIXES:
            found = regex.search(base)
            if found is not None:
                suffixes.insert(0, render(found.groupdict()))
                base = base[: found.start()]
                peeled = True
                break
    for regex, render in _BASES:
        found = regex.fullmatch(base)
        if found is None:
            continue
        groups = found.groupdict()
        if "side" in groups:
            groups["side"] = names.side(groups["side"])
        for key in ("ship", "target"):
            if key in groups:
                groups[key] = names.ids_to_names(groups[key])
        return render(groups) + "".join(suffixes)
    return names.ids_to_names(base) + "".join(suffixes)
