"""The engine's only random source: seeded dice that record every roll.

A ``Dice`` owns its own ``random.Random(seed)``; the module-level ``random`` functions are
never used, so a battle replays byte for byte from its seed and the same sequence of calls.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import NamedTuple, cast

from mypy_extensions import mypyc_attr

from battles.rules.errors import whole_number

__all__ = ["Dice", "Roll", "UnrecordedDice"]


class Roll(NamedTuple):
    """One die rolled: why (``purpose``), its size (``sides``) and the face shown (1..sides).

    ``Roll("beam-1 vs Ra'am, die 2", 6, 4)``.
    """

    purpose: str
    sides: int
    result: int

    def notation(self) -> str:
        """Compact audit line, e.g. ``"beam-1 vs Ra'am, die 2: d6=4"``."""
        return f"{self.purpose}: d{self.sides}={self.result}"


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: tests script their own dice)
class Dice:
    """Seeded dice recording every roll in ``log`` (a list of :class:`Roll`, in roll order).

    ``seed`` is anything ``random.Random`` accepts (int or str). Two ``Dice`` with the same
    seed asked the same questions give the same faces and the same log.

    A die is first kept as a plain ``(purpose, die, re_roll, sides, face)`` tuple; reading
    ``log`` turns the dice rolled since the last read into ``Roll``s, writing each purpose
    then (``_as_roll``: ``die`` and ``re_roll``, when not 0, add ``", die i"`` and
    ``", re-roll k"``). A recorded battle reads no purpose while it is fought: neither the
    text nor the ``Roll`` is made during the fight. ``rolled`` counts the dice so far.
    """

    __slots__ = ("seed", "_rng", "_log", "_new")

    #: False on ``UnrecordedDice``: callers may skip writing a purpose nobody will read.
    recording = True

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._log: list[Roll] = []
        self._new: list[tuple[str, int, int, int, int]] = []  # rolled since ``log`` was read

    def __repr__(self) -> str:
        return f"Dice(seed={self.seed!r}) [{self.rolled} rolls]"

    @property
    def log(self) -> list[Roll]:
        """Every die rolled, in order (the list itself: clearing it forgets them)."""
        if self._new:
            self._log.extend([_as_roll(*entry) for entry in self._new])
            self._new.clear()
        return self._log

    def written(self) -> list[tuple[str, int, int]]:
        """Every die rolled, in order, as ``(purpose, sides, face)`` — what ``log`` holds,
        without making a ``Roll`` of the dice not read yet (the stored battle reads each
        die once: ``battles.services.engine_log.engine_rows``)."""
        out: list[tuple[str, int, int]] = list(self._log)  # a Roll is such a tuple
        for purpose, die, re_roll, sides, face in self._new:
            if die:
                purpose = f"{purpose}, die {die}"
            if re_roll:
                purpose = f"{purpose}, re-roll {re_roll}"
            out.append((purpose, sides, face))
        return out

    @property
    def rolled(self) -> int:
        """How many dice ``log`` holds (without writing their ``Roll``s)."""
        return len(self._log) + len(self._new)

    def die(self, sides: object, purpose: str) -> int:
        """Roll one die of ``sides`` faces (d3, d6 …); returns 1..sides and logs it.
        ``BadArgument`` naming ``sides`` unless it is a whole number ≥ 1."""
        if type(sides) is not int or sides < 1:
            sides = whole_number(
                sides, "sides", f"die ({purpose}): a die needs at least one side", minimum=1
            )
        result = int(self._rng.random() * sides) + 1
        self._new.append((purpose, 0, 0, sides, result))
        return result

    def d6(self, purpose: str) -> int:
        """Roll one six-sided die; returns 1..6 and logs it."""
        result = int(self._rng.random() * 6) + 1
        self._new.append((purpose, 0, 0, 6, result))
        return result

    def roll(self, n: object, purpose: str, sides: object = 6) -> list[int]:
        """Roll ``n`` dice (default d6); each is logged as ``"<purpose>, die i"`` (1-based).
        ``BadArgument`` naming ``n`` (a whole number ≥ 0) or ``sides`` (≥ 1) otherwise."""
        if type(n) is not int or n < 0:
            n = whole_number(n, "n", f"roll ({purpose}): cannot roll a negative number of dice")
        if type(sides) is not int or sides < 1:
            sides = whole_number(
                sides, "sides", f"die ({purpose}): a die needs at least one side", minimum=1
            )
        rand, log = self._rng.random, self._new
        faces = [int(rand() * sides) + 1 for _ in range(n)]
        for i, face in enumerate(faces, 1):
            log.append((purpose, i, 0, sides, face))
        return faces

    def roll_chained(
        self, n: object, purpose: str, *, chain: bool = True, max_rerolls: object = None
    ) -> list[list[int]]:
        """Roll ``n`` d6, each followed by its §7 re-roll chain (D-11): a 6 re-rolls that die,
        again on each further 6, at most ``max_rerolls`` times (None = no limit).

        Returns one list of faces per die, first face first. Logged as
        ``"<purpose>, die i"`` then ``"<purpose>, die i, re-roll k"``. ``BadArgument``
        naming ``n`` or ``max_rerolls`` unless each is a whole number ≥ 0 (or None).
        """
        if type(n) is int and n >= 0 and (max_rerolls is None or _count_ok(max_rerolls)):
            count, limit = n, cast("int | None", max_rerolls)
        else:
            count, limit = _chain_arguments(n, max_rerolls, purpose)
        rand, log = self._rng.random, self._new
        out: list[list[int]] = []
        for i in range(1, count + 1):
            face = int(rand() * 6) + 1
            log.append((purpose, i, 0, 6, face))
            faces = [face]
            k = 0
            while chain and face == 6 and (limit is None or k < limit):
                k += 1
                face = int(rand() * 6) + 1
                log.append((purpose, i, k, 6, face))
                faces.append(face)
            out.append(faces)
        return out

    def reroll_chain(self, first: int, purpose: str, *, on: int = 6) -> Iterator[int]:
        """Yield the re-rolls granted by ``first`` and each following face equal to ``on``.

        §7 (D-11): a natural 6 grants a re-roll of that die, and re-rolls chain on further
        6s. Yields nothing when ``first`` is not ``on``. Each re-roll is logged as
        ``"<purpose>, re-roll k"``.
        """
        face = first
        k = 0
        while face == on:
            k += 1
            face = self.d6(f"{purpose}, re-roll {k}")
            yield face

    def transcript(self) -> str:
        """The whole log, one :meth:`Roll.notation` per line (used for replay checks)."""
        return "\n".join(r.notation() for r in self.log)


def _as_roll(purpose: str, die: int, re_roll: int, sides: int, face: int) -> Roll:
    """A die kept by ``Dice`` as the ``Roll`` of its ``log``, its purpose written."""
    if die:
        purpose = f"{purpose}, die {die}"
    if re_roll:
        purpose = f"{purpose}, re-roll {re_roll}"
    return Roll(purpose, sides, face)


class UnrecordedDice(Dice):
    """Dice with the same faces as ``Dice(seed)`` for the same calls, keeping no log.

    For Monte-Carlo runs (``battles.rules.forecast``) where only outcomes matter: no
    purpose text is written and no ``Roll`` kept, which is a tenth of a battle's cost. It
    overrides every method that rolls, so ``log`` stays empty.
    """

    __slots__ = ()
    recording = False

    def die(self, sides: object, purpose: str) -> int:
        if type(sides) is not int or sides < 1:
            sides = whole_number(
                sides, "sides", f"die ({purpose}): a die needs at least one side", minimum=1
            )
        return int(self._rng.random() * sides) + 1

    def d6(self, purpose: str) -> int:
        return int(self._rng.random() * 6) + 1

    def roll(self, n: object, purpose: str, sides: object = 6) -> list[int]:
        if type(n) is not int or n < 0:
            n = whole_number(n, "n", f"roll ({purpose}): cannot roll a negative number of dice")
        if type(sides) is not int or sides < 1:
            sides = whole_number(
                sides, "sides", f"die ({purpose}): a die needs at least one side", minimum=1
            )
        rand = self._rng.random
        return [int(rand() * sides) + 1 for _ in range(n)]

    def roll_chained(
        self, n: object, purpose: str, *, chain: bool = True, max_rerolls: object = None
    ) -> list[list[int]]:
        if type(n) is int and n >= 0 and (max_rerolls is None or _count_ok(max_rerolls)):
            count, limit = n, cast("int | None", max_rerolls)
        else:
            count, limit = _chain_arguments(n, max_rerolls, purpose)
        rand = self._rng.random
        out: list[list[int]] = []
        for _ in range(count):
            face = int(rand() * 6) + 1
            faces = [face]
            k = 0
            while chain and face == 6 and (limit is None or k < limit):
                k += 1
                face = int(rand() * 6) + 1
                faces.append(face)
            out.append(faces)
        return out

    def reroll_chain(self, first: int, purpose: str, *, on: int = 6) -> Iterator[int]:
        face = first
        while face == on:
            face = int(self._rng.random() * 6) + 1
            yield face


def _count_ok(value: object) -> bool:
    return type(value) is int and value >= 0


def _chain_arguments(n: object, max_rerolls: object, purpose: str) -> tuple[int, int | None]:
    """``roll_chained``'s ``n`` and ``max_rerolls`` checked: whole numbers ≥ 0 (None: no
    limit), else ``BadArgument`` naming the field."""
    where = f"roll_chained ({purpose})"
    if type(n) is not int or n < 0:
        n = whole_number(n, "n", where)
    if max_rerolls is not None and (type(max_rerolls) is not int or max_rerolls < 0):
        max_rerolls = whole_number(max_rerolls, "max_rerolls", where)
    return n, max_rerolls  # type: ignore[return-value]
