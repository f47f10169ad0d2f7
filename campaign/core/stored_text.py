"""Texts the server stores, shown in the reader's language at display time.

Services store their human texts — ledger reasons (``turns``), ship and fleet history
reasons (django-simple-history's ``history_change_reason``), repair ETA notes, battle
timeline summaries (``BattleAction.summary``) and engine outcomes (``Battle.outcome``) — as
a message key and its parameters (``campaign.core.messages``) beside the English text:
:func:`stored_text` renders the message when a row has one (a history reason holds it as
JSON). Rows written before messages existed hold English only, and
:func:`stored_text` recognises each known English shape with a pattern whose
named groups are the message's placeholders, and returns the gettext message in the active
language. Names (factions, ships, yards) and numbers are passed through as stored. A text
no pattern knows — a person's own words, a shape from older code — comes back unchanged,
so nothing is ever lost. The result is a plain ``str``: templates escape it as any other.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from campaign.core.messages import UnknownMessage, decode, end_reason_label, is_message, render

__all__ = ["SHAPES", "end_reason_label", "stored_text"]

#: Values of a match's named groups, some already translated (nested texts, reasons).
Values = dict[str, str]


@dataclass(frozen=True)
class _Shape:
    """One stored English shape: ``regex`` (full match), ``render`` its message in the
    active language from the group values, ``nested`` the groups that are themselves
    stored texts (translated first)."""

    regex: re.Pattern[str]
    render: Callable[[Values], str]
    nested: tuple[str, ...] = ()


def _n(values: Values, key: str = "n") -> int:
    return int(values[key])


def _outcome_reason(text: str) -> str | None:
    """The engine's reason for a win (``battles.services.resolve._REASONS``)."""
    reasons = {
        "the other side has no ship left in action": gettext(
            "the other side has no ship left in action"
        ),
        "the other side's last ships withdrew": gettext("the other side's last ships withdrew"),
        "more surviving strength (mass × hull left) at the turn limit": gettext(
            "more surviving strength (mass × hull left) at the turn limit"
        ),
        "both sides lost every ship": gettext("both sides lost every ship"),
        "more surviving strength (mass × hull left)": gettext(
            "more surviving strength (mass × hull left)"
        ),
    }
    return reasons.get(text)


def _head(values: Values) -> str:
    """An outcome's first clause: ``Phalon victory: <reason>``, ``No winner``, ``Draw: …``."""
    head = values["head"]
    if head == "No winner":
        return gettext("No winner")
    if head == "No winner: both sides lost every ship":
        return gettext("No winner: both sides lost every ship")
    if head == "Draw: equal surviving strength at the turn limit":
        return gettext("Draw: equal surviving strength at the turn limit")
    if head == "Draw: equal surviving strength":
        return gettext("Draw: equal surviving strength")
    found = re.fullmatch(r"(?P<side>.+) victory: (?P<reason>.+)", head)
    reason = _outcome_reason(found["reason"]) if found else None
    if reason is None:
        raise _NoMatch
    return gettext("%(side)s victory: %(reason)s") % {"side": found["side"], "reason": reason}


def _play_reason(text: str) -> str:
    """Why a turn-by-turn play ended (``battles.play.game_turns._judge``): the engine log's
    own labels, or the text as stored."""
    return end_reason_label(text) or text


class _NoMatch(Exception):
    """A shape matched on its surface but not in its parts: try the next one."""


def _after_turns(values: Values) -> str:
    return ngettext("after %(n)d turn", "after %(n)d turns", _n(values)) % {"n": _n(values)}


def _tail(values: Values) -> str:
    if values["how"] == "Resolved by the rules engine":
        return gettext("Resolved by the rules engine (seed %(seed)s).") % values
    return gettext("Played turn by turn from both sides' orders (seed %(seed)s).") % values


def _outcome(values: Values) -> str:
    return gettext("%(head)s, %(after)s. %(tail)s") % {
        "head": _head(values),
        "after": _after_turns(values),
        "tail": _tail(values),
    }


def _ended(values: Values) -> str:
    when = (
        gettext("before its first turn")
        if values["when"] == "before its first turn"
        else gettext("after turn %(n)s") % {"n": values["turn"]}
    )
    return gettext(
        "%(head)s, the battle ended by the organiser %(when)s. "
        "Played turn by turn from both sides' orders (seed %(seed)s)."
    ) % {"head": _head(values), "when": when, "seed": values["seed"]}


def _side_forces(values: Values) -> str:
    ships, groups = _n(values, "ships"), _n(values, "groups")
    return gettext("%(side)s: %(ships)s, %(groups)s") % {
        "side": values["side"],
        "ships": ngettext("%(n)d ship", "%(n)d ships", ships) % {"n": ships},
        "groups": ngettext("%(n)d group", "%(n)d groups", groups) % {"n": groups},
    }


def _entry_for(values: Values) -> str:
    n = _n(values)
    if values["who"] == "every side":
        return ngettext(
            "entry for every side: %(n)d unit", "entry for every side: %(n)d units", n
        ) % {"n": n}
    return ngettext("entry for %(who)s: %(n)d unit", "entry for %(who)s: %(n)d units", n) % {
        "who": values["who"],
        "n": n,
    }


def _turn_played(values: Values) -> str:
    if values.get("sides"):
        return gettext("turn %(n)s played (auto-resolve tactics for %(sides)s)") % values
    return gettext("turn %(n)s played") % values


def _play_ended(values: Values) -> str:
    n = _n(values)
    return ngettext(
        "turn-by-turn play ended after %(n)d turn (%(reason)s)",
        "turn-by-turn play ended after %(n)d turns (%(reason)s)",
        n,
    ) % {"n": n, "reason": _play_reason(values["reason"])}


def _shape(pattern: str, render: Callable[[Values], str], *nested: str) -> _Shape:
    return _Shape(re.compile(pattern, re.DOTALL), render, nested)


_OUTCOME = (
    r"(?P<head>.+), after (?P<n>\d+) turns?\. "
    r"(?P<how>Resolved by the rules engine|Played turn by turn from both sides' orders)"
    r" \(seed (?P<seed>\d+)\)\."
)

#: Every known stored shape, tried in order (the first that renders wins).
SHAPES: tuple[_Shape, ...] = (
    # Ledger reasons (campaign.turns: closing, repairs, building, demo).
    _shape(r"income of turn (?P<n>\d+)", lambda v: gettext("income of turn %(n)s") % v),
    _shape(
        r"income of turn (?P<n>\d+), capped at the maximum of (?P<max>\d+): "
        r"(?P<r>\d+) resources and (?P<t>\d+) technology not credited",
        lambda v: (
            gettext(
                "income of turn %(n)s, capped at the maximum of %(max)s: %(r)s resources and "
                "%(t)s technology not credited"
            )
            % v
        ),
    ),
    _shape(
        r"opening treasury \(demo\)",
        lambda v: gettext("opening treasury (demo)"),
    ),
    _shape(
        r"construction of (?P<name>.+) at (?P<yard>.+) cancelled",
        lambda v: gettext("construction of %(name)s at %(yard)s cancelled") % v,
    ),
    _shape(
        r"construction of (?P<name>.+) at (?P<yard>.+)",
        lambda v: gettext("construction of %(name)s at %(yard)s") % v,
    ),
    _shape(
        r"battle (?P<battle>.+) undone: repair of (?P<ship>.+) cancelled",
        lambda v: gettext("battle %(battle)s undone: repair of %(ship)s cancelled") % v,
    ),
    _shape(
        r"repair of (?P<ship>.+) cancelled",
        lambda v: gettext("repair of %(ship)s cancelled") % v,
    ),
    _shape(
        r"repair of (?P<ship>.+) at (?P<yard>.+)",
        lambda v: gettext("repair of %(ship)s at %(yard)s") % v,
    ),
    # History change reasons (campaign.turns.closing, campaign.turns.moves) and repair ETA notes.
    _shape(r"turn (?P<n>\d+) reopened", lambda v: gettext("turn %(n)s reopened") % v),
    _shape(r"turn (?P<n>\d+) closed", lambda v: gettext("turn %(n)s closed") % v),
    _shape(
        r"turn (?P<n>\d+): moved to (?P<place>.+)",
        lambda v: gettext("turn %(n)s: moved to %(place)s") % v,
    ),
    _shape(
        r"turn (?P<n>\d+): repaired at (?P<yard>.+)",
        lambda v: gettext("turn %(n)s: repaired at %(yard)s") % v,
    ),
    _shape(
        r"turn (?P<n>\d+): built at (?P<yard>.+)",
        lambda v: gettext("turn %(n)s: built at %(yard)s") % v,
    ),
    _shape(
        r"turn (?P<n>\d+): lost with carrier (?P<carrier>.+)",
        lambda v: gettext("turn %(n)s: lost with carrier %(carrier)s") % v,
    ),
    _shape(
        r"was turn (?P<n>\d+): (?P<why>.+)",
        lambda v: gettext("was turn %(n)s: %(why)s") % v,
        "why",
    ),
    _shape(
        r"Built at (?P<yard>.+), turn (?P<n>\d+)\.",
        lambda v: gettext("Built at %(yard)s, turn %(n)s.") % v,
    ),
    # Engine outcomes (battles.services.resolve.outcome_text, battles.play.engine_io).
    _shape(_OUTCOME, _outcome),
    _shape(
        r"(?P<head>.+), the battle ended by the organiser "
        r"(?P<when>after turn (?P<turn>\d+)|before its first turn)\. "
        r"Played turn by turn from both sides' orders \(seed (?P<seed>\d+)\)\.",
        _ended,
    ),
    # Participants' notes written by the engine (battles.services.resolve).
    _shape(
        r"left derelict: crew lost to life support failure \(§4\)",
        lambda v: gettext("left derelict: crew lost to life support failure (§4)"),
    ),
    _shape(
        r"left dead in space: core shut down \(§4\)",
        lambda v: gettext("left dead in space: core shut down (§4)"),
    ),
    # Battle timeline summaries (battles.services.*, battles.play.game_turns).
    _shape(
        r"(?P<side>[^/]+): (?P<ships>\d+) ship\(s\), (?P<groups>\d+) group\(s\)",
        _side_forces,
    ),
    _shape(r"entry for (?P<who>.+): (?P<n>\d+) unit\(s\)", _entry_for),
    _shape(r"entry (?P<n>\d+) confirmed", lambda v: gettext("entry %(n)s confirmed") % v),
    _shape(r"entry (?P<n>\d+) rejected", lambda v: gettext("entry %(n)s rejected") % v),
    _shape(r"recorded from the table", lambda v: gettext("recorded from the table")),
    _shape(r"first dice seed drawn", lambda v: gettext("first dice seed drawn")),
    _shape(
        r"reopened: every ship and light unit as before the battle",
        lambda v: gettext("reopened: every ship and light unit as before the battle"),
    ),
    _shape(
        r"turn-by-turn play started \(seed (?P<seed>\d+), at most (?P<n>\d+) turns\)",
        lambda v: gettext("turn-by-turn play started (seed %(seed)s, at most %(n)s turns)") % v,
    ),
    _shape(
        r"(?P<side>[a-z0-9-]+): orders for turn (?P<n>\d+) submitted",
        lambda v: gettext("%(side)s: orders for turn %(n)s submitted") % v,
    ),
    _shape(
        r"turn (?P<n>\d+) played(?: \(auto-resolve tactics for (?P<sides>[a-z0-9, -]+)\))?",
        _turn_played,
    ),
    _shape(
        r"turn-by-turn play ended after (?P<n>\d+) turn\(s\) \((?P<reason>[a-z-]+)\)",
        _play_ended,
    ),
)

#: Separators of stored lists (a battle's sides " / ", a participant's notes "; "): a text
#: made of known parts is shown part by part.
_SEPARATORS = (" / ", "; ")


def _one(text: str) -> str | None:
    for shape in SHAPES:
        found = shape.regex.fullmatch(text)
        if found is None:
            continue
        values = {k: v for k, v in found.groupdict().items() if v is not None}
        for key in shape.nested:
            values[key] = stored_text(values[key])
        try:
            return shape.render(values)
        except _NoMatch:
            continue
    return None


def _translated(text: str) -> str:
    found = _one(text)
    if found is not None:
        return found
    for sep in _SEPARATORS:
        if sep in text:
            parts = [_one(p) for p in text.split(sep)]
            if all(p is not None for p in parts):
                return sep.join(parts)  # type: ignore[arg-type]
    return text


def stored_text(text: str | None, message: object = None) -> str:
    """A text a service stored, in the active language: ``message`` (its stored message,
    ``campaign.core.messages``) rendered when given, or the message ``text`` holds as JSON
    (a history reason); else ``text`` (English) through the patterns, unchanged when no
    known shape matches (a person's own words, an older shape); ``""`` for None.
    E.g. ``"income of turn 3"`` → ``"revenus du tour 3"`` in French. A message whose key
    this code no longer knows falls back to the text."""
    stored = message if is_message(message) else decode(text)
    if stored is not None:
        try:
            return render(stored)  # type: ignore[arg-type]
        except UnknownMessage:
            if stored is not message:  # the text is the JSON itself: nothing else to show
                return text or ""
    if not text:
        return ""
    text = str(text)
    if len(text) > 2000:  # a narrative-sized text is someone's own writing
        return text
    return _translated(text)
