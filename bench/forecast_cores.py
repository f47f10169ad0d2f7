"""The forecast on every core against one (``python -m bench``; the goal:
≥ 1.8× on 2 cores), measured so that a machine shared with other work still says something true.

``win_odds`` with ``workers=1`` (the anchor) and with its default (every core: this process
and its helpers) are run alternately, ``repeats`` times each, in one process. For each run:
wall time and the CPU of each process that fought — this one (``time.process_time``), the
helpers (children of the forkserver, which reaps them: its ``cutime + cstime`` in
``/proc``, Linux only) and the forkserver itself (started by the first shared run, its
start-up on the helpers' path). Printed per pair and as medians:

- the wall speed-up, anchor wall / shared wall: what the other work on the machine leaves;
- the CPU speed-up, anchor CPU / the longest CPU path of the shared run (this process's
  CPU, or the forkserver's plus a helper's, whichever is longer): the wall speed-up on
  free cores, since each process then runs its CPU path at once; honest while every
  process gets the same share of a loaded machine, which the load average beside says;
- the CPU spent over the anchor's (start-up, pickling, idle tails).
"""

from __future__ import annotations

import os
import statistics
import time
from multiprocessing import forkserver
from pathlib import Path

from battles.rules.forecast import Forecast, usable_cores, win_odds
from battles.rules.ships import ShipState


def _forkserver_cpu() -> tuple[float, float] | None:
    """(CPU s of the forkserver, of its reaped children: the helpers); None when unknown."""
    pid = forkserver._forkserver._forkserver_pid  # noqa: SLF001  (no public accessor)
    if pid is None:
        return (0.0, 0.0)
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, (int(fields[13]) + int(fields[14])) / tick


class _Run:
    """One ``win_odds`` call: its answer, wall s, this process's CPU s, and the CPU s of
    the forkserver and of the helpers (None when unknown)."""

    def __init__(
        self, a: list[ShipState], b: list[ShipState], n: int, turns: int, workers: int | None
    ) -> None:
        before = _forkserver_cpu()
        wall, cpu = time.perf_counter(), time.process_time()
        self.found = win_odds(a, b, battles=n, seed=0, max_turns=turns, workers=workers)
        self.wall, self.cpu = time.perf_counter() - wall, time.process_time() - cpu
        time.sleep(0.1)  # the helpers are reaped when the pool shuts down; a margin
        after = _forkserver_cpu()
        self.server = self.helpers = None
        if before is not None and after is not None:
            self.server, self.helpers = after[0] - before[0], after[1] - before[1]


def bench_forecast_cores(
    a: list[ShipState], b: list[ShipState], n: int, turns: int, repeats: int, anchor: Forecast
) -> None:
    """Print the shared forecast's speed-up over one process (see the module doc)."""
    cores = usable_cores()
    walls, cpus, same = [], [], True
    lines = []
    for _ in range(repeats):
        alone, shared = _Run(a, b, n, turns, 1), _Run(a, b, n, turns, None)
        same = same and alone.found == anchor and shared.found == anchor
        walls.append(alone.wall / shared.wall)
        line = (
            f"    one process {alone.wall:.2f} s wall, {alone.cpu:.2f} s CPU | every core "
            f"{shared.wall:.2f} s wall, CPU here {shared.cpu:.2f} s"
        )
        if shared.server is not None and shared.helpers is not None:
            path = max(shared.cpu, shared.server + shared.helpers / max(1, cores - 1))
            cpus.append(alone.cpu / path)
            spent = shared.cpu + shared.server + shared.helpers
            line += (
                f", helpers {shared.helpers:.2f} s, forkserver {shared.server:.2f} s: "
                f"{spent / alone.cpu:.2f}× the CPU; speed-up wall {walls[-1]:.2f}×, "
                f"CPU {cpus[-1]:.2f}×"
            )
        lines.append(line)
    cpu = f", CPU {statistics.median(cpus):.2f}×" if cpus else ""
    print(
        f"  on {cores} cores (win_odds default) against one process, {repeats} alternated "
        f"pairs, load average {os.getloadavg()[0]:.1f}: speed-up median wall "
        f"{statistics.median(walls):.2f}×{cpu} (goal ≥ 1.8× on 2 cores); "
        + ("same answer" if same else "DIFFERENT ANSWER")
    )
    print("\n".join(lines))
