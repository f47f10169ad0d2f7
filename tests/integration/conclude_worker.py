"""A separate process that concludes one battle (for test_concurrent_conclusion.py).

``python -m tests.integration.conclude_worker BATTLE_ID HOLD_SECONDS GO_FILE OUT_FILE``:
sets Django up on ``DATABASE_URL``, waits for ``GO_FILE`` to exist, resolves the battle
(holding its transaction ``HOLD_SECONDS`` after the rows are locked, so the other process
runs into the locks), and writes ``concluded`` or the refusal to ``OUT_FILE``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from campaign.core.actors import SYSTEM


def main() -> None:
    battle_id, hold, go, out = int(sys.argv[1]), float(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
    import django

    django.setup()
    # The models import only once django.setup() has run in this child process.
    from battles.models import Battle
    from battles.services import BattleActionError, battle_resolve, conclude

    real = conclude.intel_record_battle

    def slow(**kwargs):
        time.sleep(hold)  # inside the transaction, rows locked
        return real(**kwargs)

    conclude.intel_record_battle = slow
    while not go.exists():
        time.sleep(0.01)
    try:
        battle_resolve(user=SYSTEM, battle=Battle.objects.get(pk=battle_id), seed=11, max_turns=3)
        result = "concluded"
    except BattleActionError as exc:
        result = f"refused: {exc}"
    Path(out).write_text(result, "utf-8")


if __name__ == "__main__":
    main()
