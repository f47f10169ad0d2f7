"""A GM ship through the rounds of a starship combat: tokens left, critical states, what it
may still do, and the odds of its checks.

Source: seed 001 (all sections); the other-systems restatement §A
with reading O-1 ("+2 to all checks" = all of that ship's checks this round). Readings of
this module (listed in ``battles/systems/readings.md``):

- H-1 each post works through one system (pilot → engines, gunner → the weapons of the arc
  fired, science officer → sensors, engineer → power core);
- H-4 a wrecked system also carries its malfunctioning effects (it is the worse state);
- H-5 maintain integrity works on the system it targets whatever that system's state.

A ``GMShip`` is a plain mutable record; every change goes through a function here and is
appended to ``ship.log`` as a :class:`TokenEvent`. ``to_dict`` / ``from_dict`` round-trip it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from battles.systems.sf_tokens.data import (
    ACTIONS,
    ARCS,
    BASIC_CHECKS,
    CRITICAL_STATES,
    POST_SYSTEM,
    POSTS,
    SYSTEMS,
)
from battles.systems.sf_tokens.errors import (
    IllegalAction,
    TokenRulesError,
    UnknownAction,
    UnknownSystem,
)
from battles.systems.sf_tokens.pool import MAX_CREW, _int, check_odds, parse_tier, token_pool

__all__ = [
    "ActionOption",
    "CheckOdds",
    "GMShip",
    "TokenEvent",
    "available_actions",
    "basic_modifier",
    "boost",
    "check_table",
    "new_ship",
    "next_round",
    "set_state",
    "spend",
]

_CHECK_POST = {c.id: c.post for c in BASIC_CHECKS}


@dataclass(frozen=True, slots=True)
class TokenEvent:
    """One thing that happened to a ship: ``kind`` is ``round``, ``boost``, ``action`` or
    ``state``; ``cost`` tokens spent; ``tokens_left`` after it."""

    round: int
    kind: str
    detail: str
    cost: int
    tokens_left: int

    def notation(self) -> str:
        return f"R{self.round} {self.kind} {self.detail} (-{self.cost}, {self.tokens_left} left)"


@dataclass(slots=True)
class GMShip:
    """A GM-controlled ship's round state (see module docstring)."""

    name: str
    tier: Fraction
    pc_tier: Fraction
    crew: int
    posts: frozenset[str]
    bonuses: dict[str, int] = field(default_factory=dict)
    states: dict[str, str] = field(default_factory=dict)
    burnt: int = 0
    round: int = 1
    tokens: int = 0
    maintained: dict[str, str] = field(default_factory=dict)
    boost_all: bool = False
    boosts_one: int = 0
    log: list[TokenEvent] = field(default_factory=list)

    @property
    def pool(self) -> int:
        """Tokens at the start of a round: the seed's pool less the tokens burnt for good."""
        return max(0, token_pool(self.tier, self.pc_tier, self.crew) - self.burnt)

    def state(self, system: str) -> str:
        return self.states.get(system, "nominal")

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "tier": str(self.tier),
            "pc_tier": str(self.pc_tier),
            "crew": self.crew,
            "posts": sorted(self.posts),
            "bonuses": dict(self.bonuses),
            "states": dict(self.states),
            "burnt": self.burnt,
            "round": self.round,
            "tokens": self.tokens,
            "maintained": dict(self.maintained),
            "boost_all": self.boost_all,
            "boosts_one": self.boosts_one,
            "log": [[e.round, e.kind, e.detail, e.cost, e.tokens_left] for e in self.log],
        }

    @classmethod
    def from_dict(cls, data: object) -> GMShip:
        """Rebuild a ship from :meth:`to_dict`; anything malformed raises
        :class:`TokenRulesError` naming the field (never a ``KeyError``/``TypeError``)."""
        if not isinstance(data, dict):
            raise TokenRulesError("ship: expected an object")
        try:
            ship = new_ship(
                name=data.get("name", ""),
                tier=data.get("tier"),
                pc_tier=data.get("pc_tier"),
                crew=data.get("crew"),
                posts=data.get("posts", POSTS),
                bonuses=data.get("bonuses", {}),
            )
            for system, state in dict(data.get("states", {})).items():
                _check_state(system, state)
                if state != "nominal":
                    ship.states[system] = state
            ship.burnt = _int(data.get("burnt", 0), "burnt", 0, 4, TokenRulesError)
            ship.round = _int(data.get("round", 1), "round", 1, 10_000, TokenRulesError)
            ship.tokens = _int(
                data.get("tokens", ship.pool), "tokens", 0, ship.pool, TokenRulesError
            )
            for system, how in dict(data.get("maintained", {})).items():
                _check_state(system, how)
                ship.maintained[system] = how
            ship.boost_all = bool(data.get("boost_all", False))
            ship.boosts_one = _int(data.get("boosts_one", 0), "boosts_one", 0, 4, TokenRulesError)
            for row in list(data.get("log", []))[-200:]:
                r, kind, detail, cost, left = row
                ship.log.append(TokenEvent(int(r), str(kind), str(detail), int(cost), int(left)))
        except (TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, TokenRulesError):
                raise
            raise TokenRulesError(f"ship: malformed state ({exc})") from None
        return ship


def _check_state(system: object, state: object) -> None:
    if system not in SYSTEMS:
        raise UnknownSystem(f"system: {system!r} is not one of {', '.join(SYSTEMS)}")
    if state not in CRITICAL_STATES:
        raise UnknownSystem(f"state: {state!r} is not one of {', '.join(CRITICAL_STATES)}")


def new_ship(
    *,
    name: object,
    tier: object,
    pc_tier: object,
    crew: object,
    posts: object = POSTS,
    bonuses: object = None,
) -> GMShip:
    """A GM ship at the start of round 1 with a full pool (:func:`token_pool`).

    ``posts``: the crewed posts among ``pilot``, ``gunner``, ``science``, ``engineer``;
    ``bonuses``: the ship's modifier per basic check (``piloting``, ``gunnery``,
    ``special-gunnery``), −50…50. Raises a :class:`TokenRulesError` naming the field.
    """
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        raise TokenRulesError("name: give the ship a name (1–80 characters)")
    if isinstance(posts, str) or not isinstance(posts, list | tuple | set | frozenset):
        raise TokenRulesError("posts: expected a list of posts")
    for post in posts:
        if post not in POSTS:
            raise TokenRulesError(f"posts: {post!r} is not one of {', '.join(POSTS)}")
    if bonuses is not None and not isinstance(bonuses, dict):
        raise TokenRulesError("bonuses: expected a modifier per basic check")
    checked: dict[str, int] = {}
    for check, value in (bonuses or {}).items():
        if not isinstance(check, str) or check not in _CHECK_POST:
            raise TokenRulesError(f"bonuses: {check!r} is not a basic check")
        checked[check] = _int(value, f"bonuses.{check}", -50, 50, TokenRulesError)
    ship = GMShip(
        name=name.strip(),
        tier=parse_tier(tier, "tier"),
        pc_tier=parse_tier(pc_tier, "pc_tier"),
        crew=_int(crew, "crew", 1, MAX_CREW, TokenRulesError),
        posts=frozenset(posts),
        bonuses=checked,
    )
    ship.tokens = ship.pool
    return ship


def _effective(ship: GMShip, system: str) -> str:
    """The state that counts this round, after maintain integrity (H-5)."""
    if system in ship.maintained:
        return "nominal"
    return ship.state(system)


def _system_for(post: str, arc: str) -> str:
    system = POST_SYSTEM[post]
    return f"weapons-{arc}" if system == "weapons" else system


@dataclass(frozen=True, slots=True)
class ActionOption:
    """An advanced action as the ship stands: ``cost`` in tokens, ``allowed`` or the
    ``reason`` it is not."""

    id: str
    cost: int
    allowed: bool
    reason: str


def _action_cost(
    ship: GMShip, action_id: str, *, arc: str = "forward", system: str = ""
) -> tuple[int, str]:
    """(cost, reason refused or "") for ``action_id``."""
    if not isinstance(action_id, str) or action_id not in ACTIONS:
        raise UnknownAction(f"action: {action_id!r} is not an advanced action")
    if arc not in ARCS:
        raise TokenRulesError(f"arc: {arc!r} is not one of {', '.join(ARCS)}")
    action = ACTIONS[action_id]
    if ship.tier < action.min_tier:
        return 1, f"needs tier {action.min_tier}"
    if action.post not in ship.posts:
        return 1, f"the {action.post} post is not crewed"
    cost = 1
    if action_id == "maintain-integrity":
        if system not in SYSTEMS:
            return 1, "choose a system"
        if ship.state(system) not in ("malfunctioning", "wrecked"):
            return 1, "that system is neither malfunctioning nor wrecked"
        if system in ship.maintained:
            return 1, "already maintained this round"
        # H-5: the target's own state does not stop the action; the power core's does.
        if system != "power-core" and _effective(ship, "power-core") == "wrecked":
            return 1, "the power core is wrecked: no advanced action"
    else:
        if _effective(ship, "power-core") == "wrecked":
            return 1, "the power core is wrecked: no advanced action"
        used = _system_for(action.post, arc)
        state = _effective(ship, used)
        if state in ("malfunctioning", "wrecked"):
            return 1, f"{used} is {state}"
        if ship.maintained.get(used) == "malfunctioning":
            cost += 1  # seed: "actions avancées possibles, mais coûtent 1 jeton de plus"
    if ship.tokens < cost:
        return cost, "no token left" if ship.tokens == 0 else f"needs {cost} tokens"
    return cost, ""


def available_actions(ship: GMShip, *, arc: str = "forward") -> list[ActionOption]:
    """Every advanced action with its cost and whether the ship may take it now (maintain
    integrity is listed as allowed when some system could use it)."""
    out = []
    for action_id in ACTIONS:
        if action_id == "maintain-integrity":
            reasons = [
                _action_cost(ship, action_id, system=s)
                for s in SYSTEMS
                if ship.state(s) in ("malfunctioning", "wrecked")
            ] or [(1, "no malfunctioning or wrecked system")]
            best = min(reasons, key=lambda r: (bool(r[1]), r[0]))
            out.append(ActionOption(action_id, best[0], not best[1], best[1]))
            continue
        cost, reason = _action_cost(ship, action_id, arc=arc)
        out.append(ActionOption(action_id, cost, not reason, reason))
    return out


def spend(ship: GMShip, action_id: str, *, arc: str = "forward", system: str = "") -> TokenEvent:
    """Take advanced action ``action_id`` (an automatic success): spends its cost.

    ``system`` names the system for maintain integrity (a wrecked one burns the token for
    good: the pool is one less for the rest of the combat). Raises :class:`IllegalAction`
    with the reason, :class:`UnknownAction` for an unknown id.
    """
    if not isinstance(action_id, str):
        raise UnknownAction(f"action: {action_id!r} is not an advanced action")
    cost, reason = _action_cost(ship, action_id, arc=arc, system=system)
    if reason:
        raise IllegalAction(f"action {action_id}: {reason}")
    ship.tokens -= cost
    detail = action_id
    if action_id == "maintain-integrity":
        state = ship.state(system)
        ship.maintained[system] = state
        if state == "wrecked":
            ship.burnt += 1
        detail = f"{action_id} {system} ({state})"
    elif ACTIONS[action_id].post == "gunner":
        detail = f"{action_id} {arc}"
    event = TokenEvent(ship.round, "action", detail, cost, ship.tokens)
    ship.log.append(event)
    return event


def boost(ship: GMShip, kind: str) -> TokenEvent:
    """Spend one token on basic actions: ``"one"`` = +5 to one check, ``"all"`` = +2 to all
    of this ship's checks this round (O-1). Refused when life support is malfunctioning or
    wrecked (seed) or no token is left."""
    if kind not in ("one", "all"):
        raise TokenRulesError(f"boost: {kind!r} is not 'one' (+5) or 'all' (+2)")
    if _effective(ship, "life-support") in ("malfunctioning", "wrecked"):
        raise IllegalAction("boost: life support is down, no token may improve a basic action")
    if kind == "all" and ship.boost_all:
        raise IllegalAction("boost: +2 to all checks is already bought this round")
    if ship.tokens < 1:
        raise IllegalAction("boost: no token left")
    ship.tokens -= 1
    if kind == "all":
        ship.boost_all = True
    else:
        ship.boosts_one += 1
    event = TokenEvent(
        ship.round, "boost", "+5 one check" if kind == "one" else "+2 all checks", 1, ship.tokens
    )
    ship.log.append(event)
    return event


def set_state(ship: GMShip, system: str, state: str) -> TokenEvent:
    """Record a critical state (``nominal`` clears it) on ``system``."""
    _check_state(system, state)
    if state == "nominal":
        ship.states.pop(system, None)
    else:
        ship.states[system] = state
    event = TokenEvent(ship.round, "state", f"{system} {state}", 0, ship.tokens)
    ship.log.append(event)
    return event


def next_round(ship: GMShip) -> TokenEvent:
    """Start the next round: tokens refilled to the pool (seed: "récupèrent tous leurs jetons
    au début du tour"), boosts and maintenance end; a wrecked system maintained last round is
    malfunctioning from now on (seed: "il redeviendra défaillant au tour suivant")."""
    for system, how in ship.maintained.items():
        if how == "wrecked":
            ship.states[system] = "malfunctioning"
    ship.maintained = {}
    ship.boost_all = False
    ship.boosts_one = 0
    ship.round += 1
    ship.tokens = ship.pool
    event = TokenEvent(ship.round, "round", f"round {ship.round} starts", 0, ship.tokens)
    ship.log.append(event)
    return event


def basic_modifier(ship: GMShip, check: str, *, arc: str = "forward") -> int | None:
    """The ship's modifier for basic check ``check`` this round, before any token (its bonus,
    −2 for a malfunctioning or wrecked power core, −2 for wrecked life support, stacking),
    or ``None`` when the post's system is wrecked ("Impossible d'utiliser le système touché,
    actions basiques comprises")."""
    if not isinstance(check, str) or check not in _CHECK_POST:
        raise TokenRulesError(f"check: {check!r} is not one of {', '.join(_CHECK_POST)}")
    if arc not in ARCS:
        raise TokenRulesError(f"arc: {arc!r} is not one of {', '.join(ARCS)}")
    if _effective(ship, _system_for(_CHECK_POST[check], arc)) == "wrecked":
        return None
    mod = ship.bonuses.get(check, 0)
    if _effective(ship, "power-core") in ("malfunctioning", "wrecked"):
        mod -= 2
    if _effective(ship, "life-support") == "wrecked":
        mod -= 2
    if ship.boost_all:
        mod += 2
    return mod


@dataclass(frozen=True, slots=True)
class CheckOdds:
    """Exact P(success) of one basic check against ``dc``: as things stand (``now``, with a
    +2-to-all already bought), with one more +5 token, with +2 to all bought now (``None``
    when no token may be spent or the check is impossible)."""

    check: str
    dc: int
    modifier: int | None
    now: Fraction
    plus_five: Fraction | None
    plus_two: Fraction | None


def check_table(ship: GMShip, dc: int, *, arc: str = "forward") -> list[CheckOdds]:
    """:class:`CheckOdds` of each basic check the ship's crew can make against ``dc``."""
    can_boost = ship.tokens > 0 and _effective(ship, "life-support") not in (
        "malfunctioning",
        "wrecked",
    )
    out = []
    for check in BASIC_CHECKS:
        mod = basic_modifier(ship, check.id, arc=arc)
        if mod is None:
            out.append(CheckOdds(check.id, dc, None, Fraction(0), None, None))
            continue
        out.append(
            CheckOdds(
                check.id,
                dc,
                mod,
                check_odds(mod, dc),
                check_odds(mod + 5, dc) if can_boost else None,
                check_odds(mod + 2, dc) if can_boost and not ship.boost_all else None,
            )
        )
    return out
