"""The rules engine's refusals in the reader's language (the engine writes English only
and imports no Django: ``battles.rules.errors``).

An engine error that carries a ``code`` (the orders a player gives: movement in the §3
notation, fire, launches, recoveries) is written again from :data:`MESSAGES` with gettext,
its ``params`` as the English text shows them (ship and system ids, numbers, the order as
typed); the few English words among them (a system's status, why a ship is out of action)
are translated too. Before translating, the English template is checked against the
engine's own text: if they differ (the engine's wording changed and this table did not),
the engine's English is shown — never a translation of something else. An error without
a code (or a ``RulesError`` the web layer raised with a translated message) is shown as
written. Used by the API's error handler (``campaign.api``), the order form's movement
preview and the orders service (``battles.play``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from django.utils.translation import gettext, gettext_noop

logger = logging.getLogger(__name__)

#: The ship a message is about, then the message (the engine's ``"{ship}: …"``).
SHIP_PREFIX = gettext_noop("%(ship)s: %(error)s")

#: Engine error code -> its English text after the ``"{ship}: "`` prefix (rules §2–§9).
MESSAGES: dict[str, str] = {
    # battles/rules/movement.py: the §3 notation and what the ship can do
    "move.not-text": gettext_noop(
        "movement order %(order)s is not text in the notation of rules §3"
    ),
    "move.number-too-long": gettext_noop(
        "order %(order)s: number %(number)s too long (at most %(max)s digits) (rules §3)"
    ),
    "move.speed-change-first": gettext_noop(
        "order %(order)s: speed change %(token)s must come first (rules §3)"
    ),
    "move.manoeuvre-after-speed": gettext_noop(
        "order %(order)s: manoeuvre %(token)s after the final speed (rules §3)"
    ),
    "move.no-arc": gettext_noop("order %(order)s: manoeuvre %(token)s turns no arc (rules §3)"),
    "move.two-steps": gettext_noop(
        "order %(order)s: at most two manoeuvre steps (one before each half move) (rules §3)"
    ),
    "move.second-speed": gettext_noop("order %(order)s: a second final speed %(token)s (rules §3)"),
    "move.unreadable": gettext_noop("order %(order)s: unreadable part %(token)s (rules §3)"),
    "move.reversing": gettext_noop(
        "order %(order)s: speed %(speed)s %(change)s would be negative: no reversing (rules §3)"
    ),
    "move.final-speed": gettext_noop(
        "order %(order)s: final speed %(final)s does not match %(speed)s %(change)s "
        "(= %(end)s, capped at %(max)s mu) (rules §3)"
    ),
    "move.bridge-out": gettext_noop("order %(order)s: the bridge is out: no manoeuvres (rules §4)"),
    "move.drive-out": gettext_noop(
        "order %(order)s: the drive is out: the ship keeps its speed and heading (rules §3)"
    ),
    "move.change-over-thrust": gettext_noop(
        "order %(order)s: speed change %(change)s exceeds thrust %(thrust)s (rules §3)"
    ),
    "move.turning-cap": gettext_noop(
        "order %(order)s: %(arcs)s arcs exceed the turning cap of %(cap)s for thrust "
        "%(thrust)s (D-3) (rules §3)"
    ),
    "move.over-thrust": gettext_noop(
        "order %(order)s: %(arcs)s arcs + |%(change)s| speed exceed thrust %(thrust)s (rules §3)"
    ),
    # battles/rules/phases/orders.py: phase 1 checks
    "order.unknown-ship": gettext_noop("orders for unknown ship %(id)s (rules §2 phase 1)"),
    "order.out-of-action": gettext_noop(
        "orders for a ship out of action (%(why)s); it takes no more orders (rules §2 phase 1)"
    ),
    "fire.no-system": gettext_noop("no weapon system %(system)s to fire (rules §2 phase 1)"),
    "fire.twice": gettext_noop(
        "%(system)s (%(weapon)s) ordered to fire twice; a weapon system fires at most once "
        "a turn (rules §6, §8)"
    ),
    "fire.not-working": gettext_noop("%(system)s is %(status)s and cannot fire (rules §11)"),
    "fire.no-mode": gettext_noop(
        "%(system)s (%(weapon)s) has no fire mode %(mode)s (modes: %(modes)s; rules §8)"
    ),
    "fire.no-target": gettext_noop("%(system)s (%(weapon)s): no target ordered (rules §6)"),
    "fire.target-not-on-table": gettext_noop(
        "%(system)s (%(weapon)s): no ship or light unit %(target)s on the table to fire at "
        "(rules §6)"
    ),
    "fire.friendly-target": gettext_noop(
        "%(system)s (%(weapon)s) at %(target)s: a friendly unit is not a target (rules §6)"
    ),
    "fire.magazine-missing": gettext_noop(
        "%(system)s (%(weapon)s): its magazine %(magazine)s is missing (rules §8)"
    ),
    "fire.magazine-not-working": gettext_noop(
        "%(system)s (%(weapon)s): its magazine %(magazine)s is %(status)s (rules §8)"
    ),
    "fire.magazine-rounds": gettext_noop(
        "%(system)s (%(weapon)s): magazine %(magazine)s has %(left)s round(s) left, "
        "%(ordered)s ordered from it this turn (rules §8)"
    ),
    "launch.fire-controls": gettext_noop(
        "%(launches)s launches but %(fire_controls)s working fire control(s); each launch "
        "ties one (rules §6)"
    ),
    "launch.no-system": gettext_noop(
        "launch from %(system)s: no working system of that id (rules §2 phase 3)"
    ),
    "launch.not-enemy": gettext_noop(
        "launch from %(system)s: %(target)s is not an enemy ship (only fighters and "
        "PD-platform gunboats are launched to escort a friendly ship; rules §2 phase 3, §9)"
    ),
    "launch.no-squadron": gettext_noop(
        "launch from %(system)s: no squadron aboard to launch (rules §9)"
    ),
    "launch.rearming": gettext_noop(
        "launch from %(system)s: the squadron landed on turn %(landed)s and rearms until "
        "turn %(ready)s (rules §9)"
    ),
    "launch.no-tube": gettext_noop(
        "launch from %(system)s: no free launch tube this turn (rules §9)"
    ),
    "launch.magazine-empty": gettext_noop(
        "launch from %(system)s: magazine %(magazine)s is destroyed or empty (rules §8)"
    ),
    "launch.not-launcher": gettext_noop(
        "launch from %(system)s: not a bay or a missile launcher (rules §2 phase 3)"
    ),
    "recover.no-bay": gettext_noop("no working bay to recover squadrons into (rules §9)"),
    "recover.unknown": gettext_noop(
        "recover %(unit)s: no such light unit on the table (rules §2 phase 6)"
    ),
    "recover.not-fighter": gettext_noop(
        "recover %(unit)s: only friendly fighter squadrons land on a carrier (rules §2 phase 6)"
    ),
}

#: English words the engine puts in ``params`` (system status, why a ship is out of action,
#: no fire mode) and their messages.
WORDS: dict[str, str] = {
    "damaged": gettext_noop("damaged"),
    "destroyed": gettext_noop("destroyed"),
    "captured": gettext_noop("captured"),
    "withdrawn": gettext_noop("withdrawn"),
    "derelict": gettext_noop("derelict"),
    "dead in space": gettext_noop("dead in space"),
    "none": gettext_noop("none"),
}
_WORD_PARAMS = frozenset({"why", "status", "modes"})


def _render(code: str, params: Mapping[str, object], tr: Callable[[str], str]) -> str:
    values = {
        key: tr(WORDS[value]) if key in _WORD_PARAMS and value in WORDS else value
        for key, value in params.items()
    }
    body = tr(MESSAGES[code]) % values
    ship = params.get("ship")
    return tr(SHIP_PREFIX) % {"ship": ship, "error": body} if ship else body


def rules_error_text(error: BaseException) -> str:
    """``error``'s message in the active language: from its ``code`` and ``params`` when
    :data:`MESSAGES` knows the code and its English template gives the engine's text
    exactly; else ``str(error)`` (module docstring). Never raises."""
    code = getattr(error, "code", "")
    params = getattr(error, "params", None)
    if code not in MESSAGES or not isinstance(params, Mapping):
        return str(error)
    try:
        english = _render(code, params, str)
    except (KeyError, TypeError, ValueError):
        english = None
    if english != str(error):
        logger.warning("rules error %s: its English template no longer matches %r", code, error)
        return str(error)
    return _render(code, params, gettext)
