"""Texts the server writes for people, stored as a message key and its parameters.

A service that records a human text (a ledger reason, a ship's history reason, a repair's
ETA note, a battle's timeline line or engine outcome) stores ``message(key, **params)``
— a JSON-ready ``{"key": "turn.repaired", "params": {"n": 3, "yard": "Petra IV"}}`` —
beside the English text it still writes for search and for older readers. Display
renders the key's sentence in the reader's language with the parameters put in as stored,
so a name containing words of the sentence (a yard called "Forge at Dawn") cannot be
misread, and rewording the English sentence changes every row written before it.

Parameters are names and numbers (``str``/``int``/``None``), or nested messages (a dict
with a ``key``) rendered first, or, for ``battle.sides``, a list of such dicts. Rows
without a message (written before, or a person's own words) are shown through
``campaign.core.stored_text``'s patterns.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypedDict

from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_noop, ngettext


class StoredMessage(TypedDict):
    """A stored text: ``key`` one of :data:`MESSAGES`, ``params`` its placeholders."""

    key: str
    params: dict[str, Any]


class UnknownMessage(KeyError):
    """A stored key no longer known, or its parameters do not fit its sentence."""


Params = Mapping[str, Any]


def _simple(msgid: str) -> Callable[[Params], str]:
    """A sentence whose placeholders are the parameters (``%(name)s``), translated."""
    return lambda p: gettext(msgid) % p


def _after_turns(n: int) -> str:
    return ngettext("after %(n)d turn", "after %(n)d turns", n) % {"n": n}


#: The engine's reason for a win (``battles.rules.ai``'s end reasons).
_WIN_REASONS = {
    "destruction": gettext_noop("the other side has no ship left in action"),
    "withdrawal": gettext_noop("the other side's last ships withdrew"),
    "turn-limit": gettext_noop("more surviving strength (mass × hull left) at the turn limit"),
    "mutual": gettext_noop("both sides lost every ship"),
    "judged": gettext_noop("more surviving strength (mass × hull left)"),
}


def _victory(p: Params) -> str:
    return gettext("%(side)s victory: %(reason)s") % {
        "side": p["side"],
        "reason": gettext(_WIN_REASONS[p["reason"]]),
    }


def _outcome(p: Params) -> str:
    tail = (
        gettext("Played turn by turn from both sides' orders (seed %(seed)s).")
        if p["play"]
        else gettext("Resolved by the rules engine (seed %(seed)s).")
    ) % {"seed": p["seed"]}
    return gettext("%(head)s, %(after)s. %(tail)s") % {
        "head": p["head"],
        "after": _after_turns(int(p["n"])),
        "tail": tail,
    }


def _ended(p: Params) -> str:
    when = (
        gettext("after turn %(n)s") % {"n": p["n"]} if p["n"] else gettext("before its first turn")
    )
    return gettext(
        "%(head)s, the battle ended by the organiser %(when)s. "
        "Played turn by turn from both sides' orders (seed %(seed)s)."
    ) % {"head": p["head"], "when": when, "seed": p["seed"]}


def _side_forces(side: Params) -> str:
    ships, groups = int(side["ships"]), int(side["groups"])
    return gettext("%(side)s: %(ships)s, %(groups)s") % {
        "side": side["side"],
        "ships": ngettext("%(n)d ship", "%(n)d ships", ships) % {"n": ships},
        "groups": ngettext("%(n)d group", "%(n)d groups", groups) % {"n": groups},
    }


def _entry_for(p: Params) -> str:
    n = int(p["n"])
    if p["side"] is None:
        return ngettext(
            "entry for every side: %(n)d unit", "entry for every side: %(n)d units", n
        ) % {"n": n}
    return ngettext("entry for %(who)s: %(n)d unit", "entry for %(who)s: %(n)d units", n) % {
        "who": p["side"],
        "n": n,
    }


def _turn_played(p: Params) -> str:
    if p["sides"]:
        return gettext("turn %(n)s played (auto-resolve tactics for %(sides)s)") % p
    return gettext("turn %(n)s played") % p


def end_reason_label(reason: object) -> str | None:
    """Why a battle ended (the engine's ``destruction``, ``withdrawal``, ``turn-limit``,
    ``mutual`` or a turn-by-turn play's ``ended``) in the active language; ``None`` for
    any other value."""
    reasons = {
        "destruction": gettext("destruction"),
        "withdrawal": gettext("withdrawal"),
        "turn-limit": gettext("turn limit"),
        "mutual": gettext("mutual destruction"),
        "ended": gettext("ended by the organiser"),
    }
    return reasons.get(reason)


def _play_ended(p: Params) -> str:
    n = int(p["n"])
    return ngettext(
        "turn-by-turn play ended after %(n)d turn (%(reason)s)",
        "turn-by-turn play ended after %(n)d turns (%(reason)s)",
        n,
    ) % {"n": n, "reason": end_reason_label(p["reason"]) or p["reason"]}


#: Every message a service may store: key → its sentence in the active language from the
#: parameters (nested messages already rendered). Keys never change meaning: a reworded
#: sentence keeps its key, a sentence with other parameters gets a new one.
MESSAGES: dict[str, Callable[[Params], str]] = {
    # Ledger reasons.
    "ledger.income": _simple(gettext_noop("income of turn %(n)s")),
    "ledger.income_capped": _simple(
        gettext_noop(
            "income of turn %(n)s, capped at the maximum of %(max)s: %(r)s resources and "
            "%(t)s technology not credited"
        )
    ),
    "ledger.demo_opening": _simple(gettext_noop("opening treasury (demo)")),
    "ledger.construction": _simple(gettext_noop("construction of %(name)s at %(yard)s")),
    "ledger.construction_cancelled": _simple(
        gettext_noop("construction of %(name)s at %(yard)s cancelled")
    ),
    "ledger.repair": _simple(gettext_noop("repair of %(ship)s at %(yard)s")),
    "ledger.repair_cancelled": _simple(gettext_noop("repair of %(ship)s cancelled")),
    "ledger.repair_undone": _simple(
        gettext_noop("battle %(battle)s undone: repair of %(ship)s cancelled")
    ),
    # Ship, group and fleet history reasons; repair ETA notes.
    "turn.closed": _simple(gettext_noop("turn %(n)s closed")),
    "turn.reopened": _simple(gettext_noop("turn %(n)s reopened")),
    "turn.moved": _simple(gettext_noop("turn %(n)s: moved to %(place)s")),
    "turn.repaired": _simple(gettext_noop("turn %(n)s: repaired at %(yard)s")),
    "turn.built": _simple(gettext_noop("turn %(n)s: built at %(yard)s")),
    "turn.lost_with_carrier": _simple(gettext_noop("turn %(n)s: lost with carrier %(carrier)s")),
    "repair.eta_moved": _simple(gettext_noop("was turn %(n)s: %(why)s")),
    # Engine outcomes: a head (victory, draw, no winner) inside the whole sentence.
    "outcome.victory": _victory,
    # The reason alone, where the page names the winner already (a report's banner).
    "outcome.victory_reason": lambda p: capfirst(gettext(_WIN_REASONS[p["reason"]])),
    "outcome.no_winner": _simple(gettext_noop("No winner")),
    "outcome.mutual": _simple(gettext_noop("No winner: both sides lost every ship")),
    "outcome.draw_turn_limit": _simple(
        gettext_noop("Draw: equal surviving strength at the turn limit")
    ),
    "outcome.draw": _simple(gettext_noop("Draw: equal surviving strength")),
    "outcome.engine": _outcome,
    "outcome.ended": _ended,
    # Battle timeline lines.
    "battle.sides": lambda p: " / ".join(_side_forces(s) for s in p["sides"]),
    "battle.entry_for": _entry_for,
    "battle.entry_confirmed": _simple(gettext_noop("entry %(n)s confirmed")),
    "battle.entry_rejected": _simple(gettext_noop("entry %(n)s rejected")),
    "battle.recorded": _simple(gettext_noop("recorded from the table")),
    "battle.first_seed": _simple(gettext_noop("first dice seed drawn")),
    "battle.reopened": _simple(
        gettext_noop("reopened: every ship and light unit as before the battle")
    ),
    "battle.repairs_refunded": _simple(
        gettext_noop("repair orders cancelled and refunded: %(ships)s (%(total)s resources)")
    ),
    "battle.reopened_refunded": _simple(gettext_noop("%(reopened)s; %(refunds)s")),
    "battle.play_started": _simple(
        gettext_noop("turn-by-turn play started (seed %(seed)s, at most %(n)s turns)")
    ),
    "battle.orders": _simple(gettext_noop("%(side)s: orders for turn %(n)s submitted")),
    "battle.turn_played": _turn_played,
    "battle.play_ended": _play_ended,
}


def message(key: str, **params: Any) -> StoredMessage:
    """The stored form of message ``key`` with ``params``. Raises :class:`UnknownMessage`
    for a key not in :data:`MESSAGES` or parameters its sentence does not take (checked
    by rendering it once in English, so a bad call fails where it is written)."""
    stored: StoredMessage = {"key": key, "params": dict(params)}
    english(stored)
    return stored


def is_message(value: object) -> bool:
    """Whether ``value`` is a stored message (a mapping with a ``key``)."""
    return isinstance(value, Mapping) and isinstance(value.get("key"), str)


def _value(value: Any) -> Any:
    if is_message(value):
        return render(value)
    if isinstance(value, list):
        return [{k: _value(v) for k, v in item.items()} for item in value]
    return value


def render(stored: Mapping[str, Any]) -> str:
    """``stored``'s sentence in the active language. Raises :class:`UnknownMessage` for an
    unknown key or parameters that do not fit."""
    try:
        sentence = MESSAGES[stored["key"]]
        params = {k: _value(v) for k, v in (stored.get("params") or {}).items()}
        return sentence(params)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise UnknownMessage(f"stored message {stored.get('key')!r}: {exc!r}") from exc


def english(stored: Mapping[str, Any]) -> str:
    """``stored``'s sentence in English: the text written beside it for search."""
    with translation.override("en"):
        return render(stored)


def text_of(value: str | Mapping[str, Any], limit: int | None = None) -> str:
    """The text column's value for ``value``: a person's own words as given, a message's
    English; cut to ``limit`` characters (the column's size) when given."""
    text = english(value) if is_message(value) else str(value)
    return text[:limit] if limit else text


def message_of(value: str | Mapping[str, Any]) -> StoredMessage | dict[str, Any]:
    """The message column's value for ``value``: the message, ``{}`` for a person's words."""
    return dict(value) if is_message(value) else {}  # type: ignore[arg-type]


#: simple-history's change reason column (``history_change_reason``) holds 100 characters.
HISTORY_REASON_LENGTH = 100
_PREFIX = '{"key":'


def history_reason(stored: StoredMessage) -> str:
    """A history change reason for ``stored``: its compact JSON (``decode`` reads it back),
    or its English when the JSON would not fit the 100-character column (a long name),
    cut to fit: that row is then read as older rows are."""
    encoded = json.dumps(stored, ensure_ascii=False, separators=(",", ":"))
    if len(encoded) <= HISTORY_REASON_LENGTH:
        return encoded
    return english(stored)[:HISTORY_REASON_LENGTH]


def decode(text: str | None) -> StoredMessage | None:
    """The message a text column holds as JSON (:func:`history_reason`), else None."""
    if not text or not text.startswith(_PREFIX):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if is_message(value) else None


def history_key(text: str | None) -> str | None:
    """The message key of a history change reason, None for a plain-text one."""
    found = decode(text)
    return found["key"] if found else None
