"""Token pool, check odds: seed 001 ("Les jetons d'action",
"Limitation", "Utilisation des jetons"); the other-systems restatement §A.
"""

from __future__ import annotations

import math
from fractions import Fraction

from battles.systems.sf_tokens.errors import CrewOutOfRange, TierOutOfRange, TokenRulesError

__all__ = [
    "MAX_CREW",
    "check_odds",
    "parse_tier",
    "token_pool",
    "tokens_for_gap",
]

#: Largest crew accepted (Starfinder's biggest capital ships carry a few thousand).
MAX_CREW = 100_000
_TIERS = {Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), *map(Fraction, range(1, 21))}


def parse_tier(value: object, field: str = "tier") -> Fraction:
    """A Starfinder tier (``1/4``, ``1/3``, ``1/2``, ``1`` … ``20``) from an int or a string.

    Raises :class:`TierOutOfRange` naming ``field`` for anything else (wrong type included).
    """
    try:
        if isinstance(value, bool):
            raise TypeError
        tier = Fraction(str(value).strip()) if isinstance(value, str | int | Fraction) else None
    except (ValueError, ZeroDivisionError, TypeError):
        tier = None
    if tier not in _TIERS:
        raise TierOutOfRange(f"{field}: {value!r} is not a tier (1/4, 1/3, 1/2 or 1–20)")
    return tier


def _int(value: object, field: str, lo: int, hi: int, error: type[TokenRulesError]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{field}: {value!r} is not a whole number ({lo}–{hi})")
    if not lo <= value <= hi:
        raise error(f"{field}: {value} is out of range ({lo}–{hi})")
    return value


def tokens_for_gap(gap: int) -> int:
    """Tokens for a tier gap (GM ship tier − PC ship tier): ≤ −3 → 1, −2 → 2, −1 → 3,
    ≥ 0 → 4 (seed, "Le nombre total de jetons dépend de l'échelon"). ``gap`` is −20…20."""
    gap = _int(gap, "tier_gap", -20, 20, TierOutOfRange)
    return 4 if gap >= 0 else max(1, 4 + gap)


def token_pool(gm_tier: object, pc_tier: object, crew: object) -> int:
    """The GM ship's token pool: :func:`tokens_for_gap` of the tier gap, never more than its
    crew (seed, "Limitation": a one-seat fighter has 1 token).

    A fractional gap (tiers 1/4–1/2) is rounded down, Starfinder's rounding (reading H-2).
    Raises :class:`TierOutOfRange` or :class:`CrewOutOfRange` naming the field.
    """
    gm = parse_tier(gm_tier, "gm_tier")
    pc = parse_tier(pc_tier, "pc_tier")
    crew = _int(crew, "crew", 1, MAX_CREW, CrewOutOfRange)
    return min(tokens_for_gap(math.floor(gm - pc)), crew)


def check_odds(modifier: int, dc: int, *, disadvantage: bool = False) -> Fraction:
    """Exact P(d20 + ``modifier`` ≥ ``dc``); with ``disadvantage`` two d20 are rolled and the
    lower kept (amplified countermeasures against enemy gunners, seed tier 12).

    Starship checks have no automatic success or failure on a natural 20 or 1 (reading H-3).
    ``modifier`` and ``dc`` are −100…100.
    """
    modifier = _int(modifier, "modifier", -100, 100, TokenRulesError)
    dc = _int(dc, "dc", -100, 200, TokenRulesError)
    faces = sum(1 for face in range(1, 21) if face + modifier >= dc)
    p = Fraction(faces, 20)
    return p * p if disadvantage else p
