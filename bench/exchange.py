"""``python -m bench.exchange``: export and import a 2 000-battle campaign, timed.

Generates a league (``manage.py generate_league``: 1 000 ships, ``--battles`` 2 000 concluded
battles) and gives each battle a log of ``--rolls`` (100) dice rows naming its ships by
engine id, as a resolved battle's log does; then times ``campaign_export`` (with the JSON
text), empties the instance (every row deleted, ids going on), times ``campaign_import``
of that text, exports again and checks the bytes are the same. Targets: export and import
< 60 s each. Runs on a fresh SQLite file unless ``DATABASE_URL`` is set.

Measured (2-core shared machine, SQLite, 2 000 battles, 210 000 log rows, 45 MB of JSON):
export 8.9 s wall (4.5 s CPU), import 21.1 s wall (17.2 s CPU) at a load average of 4; at
a load of 10, import 145 s wall for 20 s of CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time


def _logs(campaign, rolls: int) -> int:
    """Give every battle of ``campaign`` ``rolls`` roll events naming its ships."""
    # After django.setup() (main), like the models.
    from battles.models import Battle, Event, Participant

    rng = random.Random(0)
    ships: dict[int, list[int]] = {}
    for battle_id, ship_id in Participant.objects.filter(
        side__battle__campaign=campaign
    ).values_list("side__battle_id", "ship_id"):
        ships.setdefault(battle_id, []).append(ship_id)
    rows = []
    for battle in Battle.objects.filter(campaign=campaign).only("pk", "game_turns"):
        start = battle.events.count() + 1
        for n in range(rolls):
            ref = f"ship-{rng.choice(ships[battle.pk])}"
            face = rng.randrange(1, 7)
            rows.append(
                Event(
                    battle=battle,
                    sequence=start + n,
                    game_turn=1 + n * (battle.game_turns or 1) // rolls,
                    phase=9,
                    kind="roll",
                    summary=f"{ref} beam-a: d6={face}",
                    data={"n": n + 1, "purpose": f"{ref} beam-a", "sides": 6, "result": face},
                )
            )
    Event.objects.bulk_create(rows, batch_size=5000)
    return len(rows)


def _empty() -> None:
    from django.core.management.color import no_style
    from django.db import connection

    tables = connection.introspection.django_table_names(only_existing=True)
    connection.ops.execute_sql_flush(
        connection.ops.sql_flush(no_style(), tables, reset_sequences=False)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ships", type=int, default=1000)
    parser.add_argument("--battles", type=int, default=2000)
    parser.add_argument("--rolls", type=int, default=100)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = (
            f"sqlite:///{tempfile.mkdtemp(prefix='admiralty-bench-')}/bench.sqlite3"
        )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from campaign.core.actors import SYSTEM
    from campaign.exchange.export import campaign_export, document_dumps
    from campaign.exchange.load import campaign_import
    from campaign.league.models import Campaign

    call_command("migrate", verbosity=0)
    call_command("generate_league", ships=args.ships, battles=args.battles, seed=0, verbosity=0)
    campaign = Campaign.objects.get(slug="generated-0")
    rolls = _logs(campaign, args.rolls)

    start, cpu = time.perf_counter(), time.process_time()
    text = document_dumps(campaign_export(campaign=campaign, user=SYSTEM))
    exported = (time.perf_counter() - start, time.process_time() - cpu)
    _empty()
    start, cpu = time.perf_counter(), time.process_time()
    result = campaign_import(document=json.loads(text), user=SYSTEM)
    imported = (time.perf_counter() - start, time.process_time() - cpu)
    again = document_dumps(campaign_export(campaign=result.campaign, user=SYSTEM))
    print(
        f"campaign exchange: {args.battles} battles, {args.ships} ships, "
        f"{result.rows['events']} log rows ({rolls} rolls), {len(text) / 1e6:.0f} MB: "
        f"export {exported[0]:.1f} s wall ({exported[1]:.1f} s CPU), "
        f"import {imported[0]:.1f} s wall ({imported[1]:.1f} s CPU) (targets < 60 s each); "
        f"export → import → export {'identical' if again == text else 'DIFFERS'}"
    )


if __name__ == "__main__":
    main()
