"""Exact distribution algebra for ``battles.rules.odds``: dicts ``{value: Fraction}`` kept
up to a value cap — convolution (n-fold, on plain integers where possible), the §7 re-roll
chain ``Y = t(face) + [face = 6]·Y'`` and its mean, scaling, shifting, mixing, the sum of n d6.

Every function is exact for each value ≤ ``cap``; what lies beyond is the caller's tail
(see the ``odds`` module docstring).
"""

from __future__ import annotations

from fractions import Fraction

Dist = dict[int, Fraction]
_SIXTH = Fraction(1, 6)


def _convolve(a: Dist, b: Dist, cap: int) -> Dist:
    out: Dist = {}
    for i, p in a.items():
        for j, q in b.items():
            if i + j <= cap:
                out[i + j] = out.get(i + j, Fraction(0)) + p * q
    return out


def _power_fractions(unit: Dist, n: int, cap: int) -> Dist:
    result: Dist = {0: Fraction(1)}
    base = unit
    while n:
        if n & 1:
            result = _convolve(result, base, cap)
        n >>= 1
        if n:
            base = _convolve(base, base, cap)
    return result


def _convolve_ints(a: list[int], b: list[int], cap: int) -> list[int]:
    out = [0] * (cap + 1)
    nonzero_b = [(j, y) for j, y in enumerate(b) if y]
    for i, x in enumerate(a):
        if not x:
            continue
        room = cap - i
        for j, y in nonzero_b:
            if j > room:
                break
            out[i + j] += x * y
    return out


def _power(unit: Dist, n: int, cap: int) -> Dist:
    """The ``n``-fold convolution of ``unit``, exact for every value ≤ ``cap``.

    Fast path on plain integers: every unit built here has ``P(k)·6^(1+k)`` integral (an
    outcome worth k never takes more than k + 1 dice), so the n-fold sum has
    ``P(k)·6^(n+k)`` integral and each value is divided once at the end. Any other unit
    falls back to Fraction arithmetic.
    """
    scaled = [0] * (cap + 1)
    for k, p in unit.items():
        if k > cap:
            continue
        v = p * 6 ** (1 + k)
        if v.denominator != 1:
            return _power_fractions(unit, n, cap)
        scaled[k] = v.numerator
    result = [1] + [0] * cap  # the empty sum: value 0 with certainty, over 6^0
    result_n, base, base_n = 0, scaled, 1
    while n:
        if n & 1:
            result = _convolve_ints(result, base, cap)
            result_n += base_n
        n >>= 1
        if n:
            base = _convolve_ints(base, base, cap)
            base_n *= 2
    return {k: Fraction(x, 6 ** (result_n + k)) for k, x in enumerate(result) if x}


def _chain(faces: tuple[int, ...], cap: int, depth: int | None) -> Dist:
    """Distribution of ``Y = faces[f] + [f = 6]·Y'`` (``depth`` re-rolls at most; None = ∞).

    Exact for every value ≤ ``cap`` because ``faces[5] ≥ 1`` (each further re-roll adds at
    least one).
    """
    if depth == 0:
        out: Dist = {}
        for v in faces:
            out[v] = out.get(v, Fraction(0)) + _SIXTH
        return out
    if depth is not None:
        deeper = _chain(faces, cap, depth - 1)
        out = {}
        for v in faces[:5]:
            out[v] = out.get(v, Fraction(0)) + _SIXTH
        for v, p in deeper.items():
            k = faces[5] + v
            if k <= cap:
                out[k] = out.get(k, Fraction(0)) + _SIXTH * p
        return out
    six = faces[5]
    assert six >= 1, "a chained face must add at least 1"
    f: list[Fraction] = [Fraction(0)] * (cap + 1)
    base = [Fraction(0)] * (cap + 1)
    for v in faces[:5]:
        if v <= cap:
            base[v] += _SIXTH
    for k in range(cap + 1):
        f[k] = base[k] + (_SIXTH * f[k - six] if k >= six else 0)
    return {k: p for k, p in enumerate(f) if p}


def _chain_mean(faces: tuple[int, ...], depth: int | None) -> Fraction:
    """``E[Y]`` for :func:`_chain`: Σfaces/5 (geometric series) or the truncated sum."""
    s = Fraction(sum(faces), 6)
    if depth is None:
        return s / (1 - _SIXTH)
    return sum((s * _SIXTH**i for i in range(depth + 1)), Fraction(0))


def _scale(d: Dist, factor: int) -> Dist:
    return {k * factor: p for k, p in d.items()}


def _shift(d: Dist, by: int) -> Dist:
    return {k + by: p for k, p in d.items()}


def _mix(*parts: tuple[Fraction, Dist]) -> Dist:
    out: Dist = {}
    for weight, d in parts:
        for k, p in d.items():
            out[k] = out.get(k, Fraction(0)) + weight * p
    return out


def _nd6_sum(n: int) -> Dist:
    return _power(dict.fromkeys(range(1, 7), _SIXTH), n, 6 * n)
