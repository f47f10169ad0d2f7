"""Monte-Carlo odds of who wins: the same two fleets fight many auto-resolved battles.

``win_odds(fleet_a, fleet_b, battles=1000, seed=0)`` fights battle ``i`` with seed
``seed + i`` through ``ai.resolve_battle`` (tactics documented there) without keeping its
log, and counts who wins and how. Any one of those battles can be replayed in full, every
die logged, with ``resolve_battle(..., seed=seed + i)``: unrecorded and recorded battles of
one seed end the same (tested). The battles are shared out over every core
(``workers``), with the same answer as in one process.

Aim: "1 000 such battles (Monte-Carlo odds of who wins)"; tactics and endings: the
``battles.rules.ai`` package; the rules as the engine reads them (README, *Layout*).
"""

from __future__ import annotations

import gc
import math
import multiprocessing
import multiprocessing.context
import os
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, fields
from typing import Any, cast

from battles.rules.ai import resolve_battle
from battles.rules.errors import BadArgument, whole_number
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState

__all__ = ["Forecast", "win_odds", "usable_cores", "MAX_BATTLES"]

MAX_BATTLES = 100_000


@dataclass(frozen=True)
class Forecast:
    """What ``battles`` auto-resolved battles gave.

    ``sides``: the two side labels (fleet A's first); ``wins``: battles won per side;
    ``draws``: battles with no winner (turn limit with equal strength, or both sides gone);
    ``endings``: battles per ending (``destruction``, ``withdrawal``, ``turn-limit``,
    ``mutual``); ``turns``: game turns summed over all battles; ``seed``: battle ``i`` used
    ``seed + i``.
    """

    battles: int
    sides: tuple[str, str]
    wins: dict[str, int]
    draws: int
    endings: dict[str, int] = field(default_factory=dict)
    turns: int = 0
    seed: int = 0

    def share(self, side: str | None) -> float:
        """Fraction of battles won by ``side`` (None: the draws), 0–1."""
        won = self.draws if side is None else self.wins[side]
        return won / self.battles if self.battles else 0.0

    def interval(self, side: str | None, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval of ``share(side)`` (``z`` = 1.96: 95 %), as (low, high)."""
        n = self.battles
        if n == 0:
            return (0.0, 1.0)
        p = self.share(side)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    @property
    def mean_turns(self) -> float:
        """Game turns per battle, on average."""
        return self.turns / self.battles if self.battles else 0.0

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (the web app's forecast cache) as its constructor call: compiled by mypyc,
        # a frozen dataclass cannot be rebuilt by setting its attributes one by one.
        return (Forecast, tuple(getattr(self, f.name) for f in fields(self)))

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: counts, shares and 95 % intervals per side and for draws."""
        outcomes: list[dict[str, Any]] = []
        for side in (*self.sides, None):
            low, high = self.interval(side)
            outcomes.append(
                {
                    "side": side,
                    "battles": self.draws if side is None else self.wins[side],
                    "share": round(self.share(side), 6),
                    "interval_95": [round(low, 6), round(high, 6)],
                }
            )
        return {
            "battles": self.battles,
            "seed": self.seed,
            "outcomes": outcomes,
            "endings": dict(self.endings),
            "mean_turns": round(self.mean_turns, 3),
        }


def win_odds(
    fleet_a: Sequence[ShipState],
    fleet_b: Sequence[ShipState],
    *,
    battles: object = 1000,
    seed: object = 0,
    max_turns: object = 20,
    options: RuleOptions | Mapping[str, Any] | None = None,
    known_classes: Mapping[str, Iterable[str]] | None = None,
    progress: Callable[[int], None] | None = None,
    workers: object = None,
) -> Forecast:
    """Fight ``battles`` battles of ``fleet_a`` against ``fleet_b`` (ship states as for
    ``resolve_battle``, not mutated), battle ``i`` with seed ``seed + i``, and count the
    outcomes. ``progress(n)`` is called once per battle fought, ``n`` = 0, 1, 2 … in turn.

    ``workers``: processes to fight in, this one included (None: every core this process
    may use, ``usable_cores()``; 1: this process only, ``workers - 1`` helper processes
    otherwise). Battles are shared out in blocks of consecutive seeds and the counts added
    up, so the answer is the same for any number of workers (tested); fewer than
    ``PARALLEL_FROM`` battles a worker are fought here.

    Raises ``BadArgument`` (a ``RulesError``, so a ``ValueError``) naming the field for
    ``battles`` not a whole number in 0–``MAX_BATTLES``, a seed not a whole number ≥ 0,
    ``max_turns`` < 1, ``workers`` not None or a whole number ≥ 1, a fleet empty or not
    a sequence of ``ShipState``, and what ``resolve_battle``
    raises for bad fleets.
    """
    # The counts are ``object`` so that a wrong type reaches these checks (and their
    # BadArgument) in the compiled engine too, rather than mypyc's TypeError at the call.
    whole_number(battles, "battles", "win_odds")
    n = cast(int, battles)
    if n > MAX_BATTLES:
        raise BadArgument(f"win_odds: battles must be 0–{MAX_BATTLES}, got {battles!r}")
    whole_number(seed, "seed", "win_odds")
    first = cast(int, seed)
    whole_number(max_turns, "max_turns", "win_odds", minimum=1)
    if workers is not None:
        whole_number(workers, "workers", "win_odds (None: every core)", minimum=1)
    sides = (_side(fleet_a, "fleet_a"), _side(fleet_b, "fleet_b"))
    job = _Job(list(fleet_a), list(fleet_b), cast(int, max_turns), options, known_classes)
    procs = min(cast("int | None", workers) or usable_cores(), max(1, n // PARALLEL_FROM))
    tally = _Tally(Counter({sides[0]: 0, sides[1]: 0}))
    if procs <= 1:
        _with_gc_paused(lambda: _fight(job, first, first + n, tally, progress))
    else:
        _with_gc_paused(lambda: _fight_in_processes(job, first, n, procs, tally, progress))
    return Forecast(
        n,
        sides,
        dict(tally.wins),
        tally.draws,
        dict(sorted(tally.endings.items())),
        tally.turns,
        first,
    )


#: Fewest battles per worker process worth starting it for (a process costs about as
#: much as a few battles to start and to send the fleets to).
PARALLEL_FROM = 20
#: Blocks of seeds shrink as the battles left do (guided scheduling): each is the battles
#: left divided by ``BLOCKS_PER_WORKER`` × workers, at least ``SMALLEST_BLOCK``, so the
#: processes finish within a few battles of each other and progress comes often.
BLOCKS_PER_WORKER = 4
SMALLEST_BLOCK = 4


def usable_cores() -> int:
    """CPU cores this process may run on (its affinity mask where the OS has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


@dataclass
class _Job:
    """What every battle of a forecast shares (sent once to each worker process)."""

    fleet_a: list[ShipState]
    fleet_b: list[ShipState]
    max_turns: int
    options: RuleOptions | Mapping[str, Any] | None
    known_classes: Mapping[str, Iterable[str]] | None


@dataclass
class _Tally:
    """Outcomes counted so far; tallies of disjoint seed blocks add up."""

    wins: Counter[str]
    draws: int = 0
    turns: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    fought: int = 0

    def add(self, other: _Tally) -> None:
        self.wins.update(other.wins)
        self.endings.update(other.endings)
        self.draws += other.draws
        self.turns += other.turns
        self.fought += other.fought


def _fight(
    job: _Job, first: int, stop: int, tally: _Tally, progress: Callable[[int], None] | None
) -> _Tally:
    """Fight seeds ``first`` … ``stop - 1`` unrecorded into ``tally``."""
    for battle_seed in range(first, stop):
        outcome = resolve_battle(
            job.fleet_a,
            job.fleet_b,
            seed=battle_seed,
            max_turns=job.max_turns,
            options=job.options,
            known_classes=job.known_classes,
            record=False,
        )
        if outcome.winner is None:
            tally.draws += 1
        else:
            tally.wins[outcome.winner] += 1
        tally.endings[outcome.reason] += 1
        tally.turns += outcome.turns
        if progress is not None:
            progress(tally.fought)
        tally.fought += 1
    return tally


def _with_gc_paused(run: Callable[[], Any]) -> Any:
    """Run with the cyclic collector paused: a battle makes thousands of objects and no
    reference cycle (checked: a collection after many battles finds nothing), so its
    passes are pure cost here. Restored after."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return run()
    finally:
        if collecting:
            gc.enable()


_worker_job: _Job | None = None


def _start_method() -> multiprocessing.context.BaseContext:
    """Helpers start from a clean server process where the platform has one ("forkserver"):
    forking the caller itself could copy a lock another of its threads holds (a web
    server's), and the engine needs nothing of the caller but the pickled fleets. That
    server imports the engine once, before its first fork (its preload, beside the
    default ``__main__``), so a helper starts without importing it again (about 0.1 s of
    CPU each, a forecast's helpers every time otherwise)."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" not in methods:
        return multiprocessing.get_context(None)
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["__main__", __name__])  # read when the server starts
    return context


def _worker_start(job: _Job) -> None:
    global _worker_job
    _worker_job = job
    gc.disable()  # as _with_gc_paused, for the life of the worker


def _worker_block(block: tuple[int, int]) -> _Tally:
    assert _worker_job is not None
    return _fight(_worker_job, block[0], block[1], _Tally(Counter()), None)


def _blocks(seed: int, battles: int, workers: int) -> deque[tuple[int, int]]:
    """Seeds ``seed`` … ``seed + battles - 1`` as ``(first, stop)`` blocks, shrinking
    (``BLOCKS_PER_WORKER``, ``SMALLEST_BLOCK``)."""
    blocks: deque[tuple[int, int]] = deque()
    start, stop = seed, seed + battles
    while start < stop:
        size = max(SMALLEST_BLOCK, math.ceil((stop - start) / (workers * BLOCKS_PER_WORKER)))
        blocks.append((start, min(start + size, stop)))
        start += size
    return blocks


def _fight_in_processes(
    job: _Job,
    seed: int,
    battles: int,
    workers: int,
    tally: _Tally,
    progress: Callable[[int], None] | None,
) -> None:
    """Fight seeds ``seed`` … ``seed + battles - 1`` here and in ``workers - 1`` helper
    processes, block by block (``_blocks``), each taking the next block when it is free;
    add every tally into ``tally`` (``progress`` called here, battle by battle, in turn).
    The cyclic collector is paused by the caller (``_with_gc_paused``).

    This process fights too: it is warm (engine imported, caches filled) and fights while
    the helpers start, so their start-up delays nothing, and one process fewer is
    started. Each helper has at most one block queued beside the one it fights, so no
    process is left with several blocks once the others are done."""
    blocks = _blocks(seed, battles, workers)
    helpers = workers - 1
    running: set[Future[_Tally]] = set()

    def add(part: _Tally) -> None:
        if progress is not None:
            for n in range(tally.fought, tally.fought + part.fought):
                progress(n)
        tally.add(part)

    with ProcessPoolExecutor(
        max_workers=helpers,
        mp_context=_start_method(),
        initializer=_worker_start,
        initargs=(job,),
    ) as pool:
        while blocks or running:
            finished = {f for f in running if f.done()}
            running -= finished
            for done in finished:
                add(done.result())
            while blocks and len(running) < 2 * helpers:
                running.add(pool.submit(_worker_block, blocks.popleft()))
            if blocks:  # fought here, progress told battle by battle
                first, stop = blocks.popleft()
                _fight(job, first, stop, tally, progress)
            elif running:
                wait(running, return_when=FIRST_COMPLETED)


def _side(fleet: object, label: str) -> str:
    if isinstance(fleet, (str, bytes)) or not isinstance(fleet, Sequence):
        raise BadArgument(
            f"win_odds: {label} must be a sequence of ShipState, got {type(fleet).__name__}"
        )
    if not fleet:
        raise BadArgument(f"win_odds: {label} has no ship")
    if not all(isinstance(ship, ShipState) for ship in fleet):
        raise BadArgument(f"win_odds: {label} must be a sequence of ShipState")
    return cast(ShipState, fleet[0]).side
