"""``python -m bench.log_hashes``: one hash per seed of the benchmark battle's whole record.

Fights seeds 0…N-1 (default 60) of the benchmark battle (``bench.fleets``: Qatzrin 5th vs
Phalon 68th) recorded, as a stored resolved battle is, and hashes every event (turn, phase,
kind, summary, data), every die (purpose, sides, face), the roll marks and the outcome
(winner, reason, turns, strength, each ship's final state); then the same seed unrecorded
(outcome and final ships only); the sample's Skirmish at Mieska (``bench.mieska``, a
non-default options object) is hashed too, as ``mieska``. A refactor that must not change
behaviour keeps every line identical: ``--save FILE`` writes the hashes, ``--check FILE``
compares and exits 1 on a difference, naming the first seed that differs. The saved
baseline ``log_hashes.baseline.json`` was made by the engine before its split into phases.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import asdict, fields, is_dataclass
from pathlib import Path
from typing import Any

from battles.rules.ai import resolve_battle
from bench.fleets import phalon_68th, qatzrin_5th
from bench.mieska import mieska_battle


def _plain(value: Any) -> Any:
    """JSON-ready, order-stable form of engine values (dataclasses, enums, sets, tuples)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(v) for v in value)
    if hasattr(value, "value") and type(value).__module__.startswith("battles"):
        return repr(value)
    return value


def _outcome(result: Any) -> dict[str, Any]:
    return {
        "winner": result.winner,
        "reason": result.reason,
        "turns": result.turns,
        "strength": result.strength,
        "ships": {sid: _plain(ship) for sid, ship in result.ships.items()},
    }


def seed_hash(seed: int, max_turns: int = 20) -> str:
    """sha256 of the seed's recorded log, dice and outcome plus its unrecorded outcome."""
    qatzrin, phalon = qatzrin_5th(), phalon_68th()
    recorded = resolve_battle(qatzrin, phalon, seed=seed, max_turns=max_turns)
    unrecorded = resolve_battle(qatzrin, phalon, seed=seed, max_turns=max_turns, record=False)
    return _digest(recorded, unrecorded)


def mieska_hash() -> str:
    """The same for the sample's Skirmish at Mieska (its stored seed and rule options)."""
    return _digest(mieska_battle(record=True), mieska_battle(record=False))


def _digest(recorded: Any, unrecorded: Any) -> str:
    digest = hashlib.sha256()
    for event in recorded.events:
        digest.update(json.dumps(asdict(event), sort_keys=True, default=repr).encode())
    for roll in recorded.rolls:
        digest.update(f"{roll.purpose}|{roll.sides}|{roll.result}\n".encode())
    digest.update(json.dumps(recorded.roll_marks).encode())
    for result in (recorded, unrecorded):
        digest.update(json.dumps(_outcome(result), sort_keys=True, default=repr).encode())
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.log_hashes", description=__doc__)
    parser.add_argument("--seeds", type=int, default=60)
    parser.add_argument("--save", type=Path, help="write the hashes to this JSON file")
    parser.add_argument("--check", type=Path, help="compare with hashes saved earlier")
    args = parser.parse_args(argv)
    hashes = {str(seed): seed_hash(seed) for seed in range(args.seeds)}
    hashes["mieska"] = mieska_hash()
    if args.save:
        args.save.write_text(json.dumps(hashes, indent=1) + "\n")
        print(f"{len(hashes)} seed hashes written to {args.save}")
    if args.check:
        saved = json.loads(args.check.read_text())
        differ = [s for s in hashes if saved.get(s) != hashes[s]]
        if differ:
            print(f"{len(differ)} of {len(hashes)} seeds differ, first: seed {differ[0]}")
            return 1
        print(f"all {len(hashes)} seeds identical to {args.check}")
    if not (args.save or args.check):
        for seed, value in hashes.items():
            print(seed, value)
    return 0


if __name__ == "__main__":
    sys.exit(main())
