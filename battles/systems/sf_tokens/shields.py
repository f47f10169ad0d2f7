"""The shield actions of GM ships: transfer (divert) and rebalance.

Source: seed 001 ("Transfert (boucliers uniquement)",
"Rééquilibrage"). Quadrants are ``forward``, ``aft``, ``port``, ``starboard``.
"""

from __future__ import annotations

from fractions import Fraction

from battles.systems.sf_tokens.data import ARCS
from battles.systems.sf_tokens.errors import TokenRulesError
from battles.systems.sf_tokens.pool import _int

__all__ = ["divert_points", "rebalance", "rebalance_evenly"]


def divert_points(pcu: object) -> int:
    """Shield points a transfer regains: 5 % of the power core's PCU, rounded down
    (Starfinder's rounding), spread freely over the quadrants by the GM."""
    return _int(pcu, "pcu", 0, 10_000, TokenRulesError) // 20


def _quadrants(shields: object, field: str) -> dict[str, int]:
    if not isinstance(shields, dict) or set(shields) - set(ARCS):
        raise TokenRulesError(f"{field}: shield points per quadrant ({', '.join(ARCS)})")
    return {
        arc: _int(shields.get(arc, 0), f"{field}.{arc}", 0, 10_000, TokenRulesError) for arc in ARCS
    }


def rebalance(current: object, new: object) -> dict[str, int]:
    """Move shield points between arcs: ``new`` must keep the same total and give every
    arc at least 10 % of it (seed). Returns ``new`` checked; raises naming the arc."""
    cur, nxt = _quadrants(current, "current"), _quadrants(new, "new")
    total = sum(cur.values())
    if sum(nxt.values()) != total:
        raise TokenRulesError(f"new: adds up to {sum(nxt.values())}, the shields hold {total}")
    for arc in ARCS:
        if nxt[arc] < Fraction(total, 10):
            raise TokenRulesError(f"new.{arc}: {nxt[arc]} is under 10 % of {total}")
    return nxt


def rebalance_evenly(current: object) -> dict[str, int]:
    """The alternative: spread the points evenly over the arcs, the remainder forward."""
    cur = _quadrants(current, "current")
    total = sum(cur.values())
    share, rest = divmod(total, len(ARCS))
    return {arc: share + (rest if arc == "forward" else 0) for arc in ARCS}
