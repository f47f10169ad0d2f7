"""Rules API of the other game systems (seeds 001–004), mounted at ``/api/rules``.

Thin handlers over the pure packages; every ``RulesError`` they raise (a tier out of range,
an action the post cannot take, a party over its cap, a screen split that does not add up,
an unknown ability…) becomes a 400 naming the field in ``campaign/api/__init__.py``. Bounded like
the core odds endpoint: at most ``MAX_REQUEST_DICE`` (300) dice per exact distribution,
100 tracker steps, 60 ships and 200 attacks per fleet turn. Probabilities are exact
fractions as strings (``"13/20"``) with a float companion.
"""

from __future__ import annotations

import secrets
from fractions import Fraction
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Query, Router, Schema

from battles.rules.dice import Dice
from battles.rules.errors import RulesError
from battles.rules.odds import MAX_REQUEST_DICE
from battles.systems import epic, sf_boarding, sf_tokens, swsb
from battles.systems.games import SYSTEMS

router = Router(tags=["rules: other systems"])

MAX_TRACKER_STEPS = 100
MAX_SEED = 2**62


def _p(p: Fraction | None) -> dict[str, Any] | None:
    if p is None:
        return None
    p = Fraction(p)
    text = str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"
    return {"p": text, "p_float": float(p)}


def _seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbits(48)
    if not 0 <= seed <= MAX_SEED:
        raise RulesError(_("seed: %(seed)s is out of range (0–2^62)") % {"seed": seed})
    return seed


@router.get("/systems", summary="The game systems and their helpers")
def systems_list(request: HttpRequest) -> list[dict[str, Any]]:
    """Every game system a battle may be played in (``battles/systems/games.py``), its seed
    files, its rules package and its helpers (page URL name, API path under /api/rules)."""
    return [
        {
            "id": s.id,
            "name": s.name,
            "name_fr": s.name_fr,
            "seeds": list(s.seeds),
            "package": s.package,
            "helpers": [
                {"id": h.id, "name": h.name, "name_fr": h.name_fr, "api": "/api/rules" + h.api}
                for h in s.helpers
            ],
        }
        for s in SYSTEMS.values()
    ]


# --- Starfinder action tokens (seed 001) --------------------------------------------


class PoolQuery(Schema):
    gm_tier: str = Field(..., description="GM ship tier: 1/4, 1/3, 1/2 or 1–20")
    pc_tier: str = Field(..., description="PC ship tier")
    crew: int = Field(..., description="GM ship crew (1–100000)")


@router.get("/starfinder/tokens/pool", summary="GM ship token pool (seed 001)")
def sf_token_pool(request: HttpRequest, q: Query[PoolQuery]) -> dict[str, Any]:
    """Tokens a GM ship starts each round with: by tier gap (≤ −3 → 1, −2 → 2, −1 → 3,
    ≥ 0 → 4), never more than its crew."""
    return {"pool": sf_tokens.token_pool(q.gm_tier, q.pc_tier, q.crew)}


class CheckQuery(Schema):
    modifier: int
    dc: int
    disadvantage: bool = False


@router.get("/starfinder/tokens/check-odds", summary="Odds of a basic check with tokens")
def sf_check_odds(request: HttpRequest, q: Query[CheckQuery]) -> dict[str, Any]:
    """Exact P(d20 + modifier ≥ DC) without a token, with +5 (one token on one check) and
    with +2 (one token on all checks); ``disadvantage``: roll twice, keep the lower."""
    return {
        "without": _p(sf_tokens.check_odds(q.modifier, q.dc, disadvantage=q.disadvantage)),
        "plus_five": _p(sf_tokens.check_odds(q.modifier + 5, q.dc, disadvantage=q.disadvantage)),
        "plus_two": _p(sf_tokens.check_odds(q.modifier + 2, q.dc, disadvantage=q.disadvantage)),
    }


class TrackerStep(Schema):
    op: str = Field(..., description="spend, boost, state or next-round")
    action: str = ""
    arc: str = "forward"
    system: str = ""
    state: str = ""
    kind: str = ""


class TrackerIn(Schema):
    ship: dict[str, Any] = Field(
        ...,
        description="A GM ship: name, tier, pc_tier, crew, posts, bonuses (as returned "
        "by this endpoint to continue a combat)",
    )
    steps: list[TrackerStep] = []
    dc: int = 15


@router.post("/starfinder/tokens/round", summary="Run GM token steps on a ship (seed 001)")
def sf_token_round(request: HttpRequest, body: TrackerIn) -> dict[str, Any]:
    """Apply ``steps`` in order to ``ship`` (spend an advanced action, boost basic checks,
    record a critical state, start the next round); a step the rules refuse is a 400
    naming it. Returns the ship (feed it back to continue), the actions it may still take
    and the odds of its basic checks against ``dc``."""
    if len(body.steps) > MAX_TRACKER_STEPS:
        raise RulesError(_("steps: at most %(max)s") % {"max": MAX_TRACKER_STEPS})
    ship = sf_tokens.GMShip.from_dict(body.ship)
    for i, step in enumerate(body.steps):
        try:
            if step.op == "spend":
                sf_tokens.spend(ship, step.action, arc=step.arc, system=step.system)
            elif step.op == "boost":
                sf_tokens.boost(ship, step.kind)
            elif step.op == "state":
                sf_tokens.set_state(ship, step.system, step.state)
            elif step.op == "next-round":
                sf_tokens.next_round(ship)
            else:
                raise sf_tokens.TokenRulesError(
                    _("op: %(op)r is not spend, boost, state or next-round") % {"op": step.op}
                )
        except RulesError as exc:
            raise type(exc)(f"steps[{i}]: {exc}") from None
    return {
        "ship": ship.to_dict(),
        "pool": ship.pool,
        "actions": [
            {"id": o.id, "cost": o.cost, "allowed": o.allowed, "reason": o.reason}
            for o in sf_tokens.available_actions(ship)
        ],
        "checks": [
            {
                "check": c.check,
                "modifier": c.modifier,
                "now": _p(c.now),
                "plus_five": _p(c.plus_five),
                "plus_two": _p(c.plus_two),
            }
            for c in sf_tokens.check_table(ship, body.dc)
        ],
    }


# --- Starfinder boarding (seed 003) -------------------------------------------------


class BoardingQuery(Schema):
    party_size: int
    party_tier: str
    party_training: str = "none"
    attacker_crew: int | None = Field(None, description="checks the party cap when given")
    pathogen: bool = False
    pathogen_weakened: bool = False
    officer_bonus: int = 0
    target_crew: int
    ship_tier: str
    ship_training: str = "none"
    antipersonnel_level: int = 0
    heavy_antipersonnel_level: int = 0
    biometric_locks: bool = False
    countermeasures: int = 0
    first_attack: bool = True
    repel_bonus: int = 0


def _boarding(q: BoardingQuery) -> tuple[sf_boarding.Party, int, int]:
    if q.pathogen:
        party = sf_boarding.pathogen_party(q.party_tier, q.party_size)
    else:
        party = sf_boarding.Party.build(
            q.party_size, q.party_tier, q.party_training, attacker_crew=q.attacker_crew
        )
    mod = sf_boarding.boarding_attack_modifier(
        party, q.target_crew, officer_bonus=q.officer_bonus, pathogen_weakened=q.pathogen_weakened
    )
    security = sf_boarding.security_modifier(
        antipersonnel_level=q.antipersonnel_level,
        heavy_antipersonnel_level=q.heavy_antipersonnel_level,
        biometric_locks=q.biometric_locks,
        countermeasures=q.countermeasures,
        first_attack=q.first_attack,
    )
    ra = sf_boarding.boarding_resistance(
        q.ship_tier, security=security, training=q.ship_training, repel_bonus=q.repel_bonus
    )
    return party, mod, ra


@router.get("/starfinder/boarding/odds", summary="Exact boarding band odds (seed 003)")
def sf_boarding_odds(request: HttpRequest, q: Query[BoardingQuery]) -> dict[str, Any]:
    """The boarding attack modifier, the ship's boarding resistance (RA) and the exact
    probability of each result band, with the boarders and crew each band neutralises."""
    party, mod, ra = _boarding(q)
    odds = sf_boarding.band_odds(mod, ra)
    return {
        "attack_modifier": mod,
        "resistance": ra,
        "bands": [
            {
                "band": band,
                **_p(odds[band]),
                "party_neutralised": {
                    "wiped-out": party.size,
                    "repelled-with-losses": party.size // 3,
                }.get(band, 0),
                "crew_neutralised": q.target_crew // 10 if band == "overwhelming" else 0,
            }
            for band in sf_boarding.BANDS
        ],
    }


class BoardingRollQuery(BoardingQuery):
    seed: int | None = None
    chosen_system: str = ""


@router.get("/starfinder/boarding/resolve", summary="Roll one boarding attack (seed 003)")
def sf_boarding_resolve(request: HttpRequest, q: Query[BoardingRollQuery]) -> dict[str, Any]:
    """Roll one boarding attack with seeded dice (random seed when none is given; the same
    seed replays the same dice) and return the result and every roll."""
    party, _mod, ra = _boarding(q)
    seed = _seed(q.seed)
    dice = Dice(seed)
    result = sf_boarding.resolve_boarding(
        dice,
        party,
        target_crew=q.target_crew,
        resistance=ra,
        officer_bonus=q.officer_bonus,
        pathogen_weakened=q.pathogen_weakened,
        chosen_system=q.chosen_system,
    )
    return {
        "seed": seed,
        "roll": result.roll,
        "attack": result.attack,
        "resistance": result.resistance,
        "band": result.band,
        "critical_system": result.critical_system,
        "party_neutralised": result.party_neutralised,
        "crew_neutralised": result.crew_neutralised,
        "rolls": [r.notation() for r in dice.log],
    }


# --- Star Wars Starship Battles (seed 002) ------------------------------------------


class AttackQuery(Schema):
    attack: int
    defence: int
    damage: int
    range: int = 0
    weapon: str = "standard"
    screen: int = 0
    modifier: int = 0
    target_is_starfighter: bool = False


@router.get("/swsb/attack-odds", summary="Exact attack odds (seed 002)")
def swsb_attack_odds(request: HttpRequest, q: Query[AttackQuery]) -> dict[str, Any]:
    """P(hit) of a d20 attack against defence with range penalties (O-2), P(critical),
    P(critical through the screen), damage through the screen and its exact mean."""
    o = swsb.attack_odds(
        attack=q.attack,
        defence=q.defence,
        damage=q.damage,
        range_squares=q.range,
        weapon=q.weapon,
        screen=q.screen,
        modifier=q.modifier,
        target_is_starfighter=q.target_is_starfighter,
    )
    return {
        "hit": _p(o.hit),
        "critical": _p(o.critical),
        "critical_through": _p(o.critical_through),
        "starfighter_destroyed": _p(o.starfighter_destroyed),
        "attack_penalty": o.attack_penalty,
        "damage_penalty": o.damage_penalty,
        "damage_on_hit": o.damage_on_hit,
        "damage_through": o.damage_through,
        "mean_damage_through": _p(o.mean_damage_through),
    }


class FleetTurnIn(Schema):
    ships: list[dict[str, Any]]
    attacks: list[dict[str, Any]] = []
    initiative: str
    repairs: dict[str, str] = {}
    seed: int | None = None
    start_of_turn: bool = True


@router.post("/swsb/fleet-turn", summary="Resolve a fleet turn (seed 002)")
def swsb_fleet_turn(request: HttpRequest, body: FleetTurnIn) -> dict[str, Any]:
    """Start of turn (fires, repairs, screens, navigation) then the declared attacks in
    fire order, criticals applied to the ships; returns the ships, the events and every
    die (seeded: the same seed replays the same turn)."""
    seed = _seed(body.seed)
    dice = Dice(seed)
    turn = swsb.fleet_turn(
        dice,
        body.ships,
        body.attacks,
        initiative=body.initiative,
        repairs=body.repairs,
        start_of_turn=body.start_of_turn,
    )
    return {
        "seed": seed,
        "ships": [s.to_dict() for s in turn.ships.values()],
        "events": [{"kind": e.kind, "ship": e.ship, "detail": e.detail} for e in turn.events],
        "rolls": [r.notation() for r in dice.log],
    }


# --- Epic special abilities (seed 004) ----------------------------------------------


@router.get("/epic/abilities", summary="Epic special abilities as data (seed 004)")
def epic_abilities(request: HttpRequest) -> list[dict[str, Any]]:
    """Every ability: id, kind, names (by effect where the seed lost them, O-4), summary,
    parameter and whether it has a resolver."""
    return [
        {
            "id": a.id,
            "kind": a.kind,
            "name": a.name,
            "name_fr": a.name_fr,
            "named_in_seed": a.named_in_seed,
            "summary": a.summary,
            "parameter": a.parameter,
            "resolvable": bool(a.resolver),
        }
        for a in epic.ABILITIES.values()
    ]


class ResolveIn(Schema):
    params: dict[str, Any] = Field(
        default_factory=dict,
        description='The resolver\'s keyword arguments, e.g. {"shields": 2, "shots": 3, '
        '"to_hit": 4, "ap": 1} for energy-shields',
    )


@router.post("/epic/abilities/{ability_id}/resolve", summary="Resolve an Epic ability (seed 004)")
def epic_resolve(request: HttpRequest, ability_id: str, body: ResolveIn) -> Any:
    """Run ``ability_id``'s resolver with ``params`` (exact odds as fractions where dice
    decide). Unknown abilities or parameters are a 400 naming them; at most
    ``MAX_REQUEST_DICE`` dice."""
    for key in ("shots", "dice"):
        value = body.params.get(key)
        if isinstance(value, int) and value > MAX_REQUEST_DICE:
            raise RulesError(
                _("params.%(key)s: at most %(max)s dice") % {"key": key, "max": MAX_REQUEST_DICE}
            )
    return epic.resolve(ability_id, body.params)
