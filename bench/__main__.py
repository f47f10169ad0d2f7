"""``python -m bench``: figures for the rules engine (printed, not asserted).

Times are CPU time of this process (``time.process_time``), so a busy shared machine
distorts them less than wall time; the Monte-Carlo run prints both.

1. single beam volleys resolved with damage applied, per second;
2. one auto-resolved battle, Qatzrin 5th fleet vs Phalon 68th fleet: turns per second;
3. N such battles (default 1 000, seeds 0…N-1) with every event and die logged, as a
   resolved battle is stored;
4. the same N battles as Monte-Carlo odds of who wins (``battles.rules.forecast.win_odds``:
   no log kept, same outcomes): who wins, and the time (target < 10 s on one core); then
   one process against every core, alternated ``--repeats`` times (``bench.forecast_cores``:
   wall speed-up, CPU spent and cores kept busy) and that the answer is the same;
5. a per-phase CPU breakdown over ``--phases`` more battles (default 100; 0 skips it);
6. callgrind instruction counts a battle (``bench.instructions``; CPU times vary too much
   on a shared machine to compare runs, counts do not) with CPU ms beside them: the sample's
   Skirmish at Mieska (``bench.mieska``) unrecorded, recorded and stored (recorded plus
   the rows ``battle_resolve`` stores), and the larger battle
   above (seeds 0…``--count-battles``-1); ``--no-counts`` skips it (valgrind needed).
"""

from __future__ import annotations

import argparse
import time

from battles.rules.ai import resolve_battle
from battles.rules.damage import apply_hits
from battles.rules.dice import Dice
from battles.rules.forecast import win_odds
from battles.rules.ships import ShipState
from battles.rules.weapons import fire
from bench.fleets import phalon_68th, provisional_classes, qatzrin_5th
from bench.forecast_cores import bench_forecast_cores
from bench.instructions import bench_counts
from bench.phases import timed_phases

TARGET = {
    "format": "admiralty-design/1",
    "name": "Target hulk",
    "mass": 200,
    "thrust": 0,
    "hull": {"boxes": 200},
    "armour": {"layers": [10]},
    "fire_controls": 0,
    "command": ["bridge", "life-support", "core"],
    "systems": [
        {"id": f"s{i}", "kind": "weapon", "weapon": "beam-2", "arcs": ["F"]} for i in range(8)
    ],
}


def bench_volleys(seconds: float) -> tuple[int, float]:
    """Beam-1 volleys at 10 mu against screen 1, damage applied to a big hulk (replaced
    when destroyed). Returns (volleys, elapsed s)."""
    dice = Dice("bench-volleys")
    target = ShipState.from_design(TARGET, ship_id="t", side="b")
    fresh = target.copy()
    count = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(200):
            volley = fire("beam-1", dice, range_mu=10, screen=1, target_name="hulk")
            apply_hits(target, volley.hits, dice)
            if target.destroyed:
                target = fresh.copy()
            count += 1
        dice.log.clear()  # keep memory flat: the log is not what is measured
        if time.process_time() >= deadline:
            break
    return count, time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--battles", type=int, default=1000, help="Monte-Carlo battles")
    parser.add_argument("--seconds", type=float, default=1.0, help="volley benchmark length")
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument(
        "--repeats", type=int, default=3, help="alternated one-core / every-core forecast pairs"
    )
    parser.add_argument(
        "--phases", type=int, default=100, help="battles for the per-phase breakdown (0: skip)"
    )
    parser.add_argument(
        "--skip-recorded", action="store_true", help="skip the N battles with full logs"
    )
    parser.add_argument(
        "--no-counts", action="store_true", help="skip the callgrind instruction counts"
    )
    parser.add_argument(
        "--count-battles", type=int, default=3, help="larger-battle seeds counted by callgrind"
    )
    args = parser.parse_args(argv)

    qatzrin, phalon = qatzrin_5th(), phalon_68th()
    print(f"fleets: Qatzrin 5th ({len(qatzrin)} ships) vs Phalon 68th ({len(phalon)} ships)")
    if provisional_classes():
        print(f"  provisional bench stats used for: {', '.join(provisional_classes())}")

    volleys, elapsed = bench_volleys(args.seconds)
    print(f"beam volleys with damage applied: {volleys / elapsed:,.0f} per second")

    start = time.process_time()
    result = resolve_battle(qatzrin, phalon, seed=0, max_turns=args.max_turns)
    elapsed = time.process_time() - start
    print(
        f"one battle (seed 0): {result.turns} turns, {len(result.events)} events, "
        f"{result.winner or 'draw'} ({result.reason}) in {elapsed * 1000:.1f} ms CPU "
        f"= {result.turns / elapsed:,.0f} turns per second"
    )

    n = max(1, args.battles)
    if not args.skip_recorded:
        start, cpu = time.perf_counter(), time.process_time()
        events = 0
        for seed in range(args.battles):
            outcome = resolve_battle(qatzrin, phalon, seed=seed, max_turns=args.max_turns)
            events += len(outcome.events) + len(outcome.rolls)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(
            f"{args.battles} battles, every event and die logged: {elapsed:.2f} s wall, "
            f"{cpu:.2f} s CPU ({cpu / n * 1000:.1f} ms CPU each, {events / n:,.0f} log "
            "entries each)"
        )

    start, cpu = time.perf_counter(), time.process_time()
    forecast = win_odds(
        qatzrin, phalon, battles=args.battles, seed=0, max_turns=args.max_turns, workers=1
    )
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"{args.battles} battles as Monte-Carlo odds (win_odds, no log): {elapsed:.2f} s wall, "
        f"{cpu:.2f} s CPU ({cpu / n * 1000:.1f} ms CPU each, {forecast.mean_turns:.1f} turns "
        "on average; target < 10 s on one core)"
    )
    for side in (*forecast.sides, None):
        low, high = forecast.interval(side)
        won = forecast.draws if side is None else forecast.wins[side]
        print(f"  {side or 'draw'}: {won} ({forecast.share(side):.1%}, 95 %: {low:.1%}–{high:.1%})")
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(forecast.endings.items())))
    bench_forecast_cores(qatzrin, phalon, args.battles, args.max_turns, args.repeats, forecast)

    if args.phases > 0:
        bench_phases(qatzrin, phalon, args.phases, args.max_turns)
    if not args.no_counts:
        bench_counts(max(1, args.count_battles))


def bench_phases(qatzrin: list[ShipState], phalon: list[ShipState], n: int, turns: int) -> None:
    """Print CPU ms per battle spent in each phase (timers nest; rows overlap)."""
    with timed_phases() as totals:
        start = time.process_time()
        for seed in range(n):
            resolve_battle(qatzrin, phalon, seed=seed, max_turns=turns)
        whole = time.process_time() - start
    print(f"per-phase CPU over {n} battles (ms per battle, timers add overhead):")
    print(f"  {'whole battle':34} {whole / n * 1000:7.2f}")
    for label, seconds in totals.items():
        print(f"  {label:34} {seconds / n * 1000:7.2f}  {seconds / whole:6.1%}")


if __name__ == "__main__":
    main()
