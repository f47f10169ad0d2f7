"""``python -m bench.turn_close``: close and reopen a turn of a generated campaign, CPU timed
beside an anchor that writes the same rows, on SQLite and on PostgreSQL.

A campaign of 20 factions, 1 000 ships and 200 repair orders in progress (×1; defaults
``--factions``, ``--ships``, ``--orders``) and one five times that size (×5). For each
database (a fresh SQLite file; PostgreSQL at ``--postgres``, database
``admiralty_bench_turnclose`` made afresh, ``--no-postgres`` skips it) and each size,
two rounds (cold: the process's first campaign of that size, ×1 cold being its first
close, the ORM's and translations' first use; warm: a second campaign of that size)
print the CPU time (``time.process_time``, garbage collected before each) of:

- the anchor: the same rows written by plain ``executemany`` in one transaction, rolled
  back: the repaired ships' damage columns, the orders' progress columns, one history row
  per repaired ship copied from its row (``INSERT … SELECT``), one income entry a faction;
- ``campaign_turn_close`` and its query count;
- ``campaign_turn_reopen`` of that turn and its query count;

and each one's ratio to the anchor, then the growth ×5/×1 of close, reopen and anchor
(goal: ≤ 0.3 s CPU at ×1, growth ≤ 5, queries constant apart from a database's own limit
on parameters per statement: SQLite's 999 splits the history rows' INSERT and the joined
UPDATEs of ``campaign.core.bulk_rows`` into batches, so the SQLite count grows with the
rows over 999 parameters; PostgreSQL's does not grow).

Measured (2-core machine shared with other jobs; warm round, CPU seconds, queries)::

    database    close ×1 → ×5            reopen ×1 → ×5           anchor ×1 → ×5
    SQLite      0.138 → 0.428 (48 → 75)  0.079 → 0.279 (25 → 50)  0.007 → 0.025
    PostgreSQL  0.126 → 0.340 (43 → 43)  0.071 → 0.235 (20 → 20)  0.012 → 0.047

×5/×1: close 3.1 and 2.7, reopen 3.5 and 3.3 (anchor 3.5 and 4.0). SQLite's count grows
only by its 999-parameter batches (the history rows' INSERT above all). Close is 11–25× the
anchor: the rest is reading the campaign, the summary and undo record, the history rows'
model instances, the turn-close receivers (scoring, strengths, sightings).

Before ``campaign.core.bulk_rows`` (Django's ``bulk_update``, CASE WHEN built in Python):
close 3.3 s (25 queries) and reopen 4.9 s at ×1, 17.3 s (53 queries) and 22.9 s at ×5
(this file's earlier claim of "21 queries that do not grow" did not hold).
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime

from campaign.core.actors import SYSTEM

PG_DATABASE = "admiralty_bench_turnclose"


def generate_campaign(*, factions: int, ships: int, orders: int):
    """A campaign of ``factions`` factions, each with a yard (capacity 10 000) holding its
    fleet, ``ships`` Tordenskjold-class ships spread over them, the first ``orders`` of
    them damaged (8 hull, 2 armour, 1 crew, beam-a) with a repair order; turn 1 open.
    Returns the campaign."""
    # The models import only after django.setup() (main).
    from campaign.league.models import Campaign
    from campaign.turns import rates
    from campaign.turns.models import CampaignTurn, RepairOrder
    from factions.catalogue_loader import catalogue_load
    from factions.models import Faction, Fleet, Ship, ShipClass, Territory

    catalogue_load()
    design = ShipClass.objects.get(faction__slug="kongeriket-norge", name="Tordenskjold")
    campaign = Campaign.objects.create(name="Bench league", slug=f"bench-{time.time_ns()}")
    unit_costs = rates.repair_unit_costs(design.design, rates.DEFAULTS)
    fleets, yards = [], []
    for i in range(factions):
        f = Faction.objects.create(name=f"Bench {campaign.slug} {i}", slug=f"{campaign.slug}-{i}")
        campaign.factions.add(f)
        yard = Territory.objects.create(
            faction=f, name=f"Yard {i}", slug="yard", has_shipyard=True, shipyard_capacity=10_000
        )
        cls = ShipClass.objects.create(
            faction=f,
            name="Tordenskjold",
            slug="tordenskjold",
            mass=design.mass,
            hull_boxes=design.hull_boxes,
            armour=design.armour,
            design=design.design,
            points=design.points,
        )
        fleets.append(
            (
                Fleet.objects.create(
                    faction=f, name=f"Fleet {i}", slug=f"{campaign.slug}-fleet-{i}", territory=yard
                ),
                cls,
            )
        )
        yards.append(yard)
    made = Ship.objects.bulk_create(
        [
            Ship(ship_class=fleets[n % factions][1], fleet=fleets[n % factions][0])
            for n in range(ships)
        ]
    )
    damaged = made[:orders]
    for ship in damaged:
        ship.status, ship.hull_lost, ship.armour_lost, ship.crew_lost = "damaged", 8, 2, 1
        ship.systems_lost = ["beam-a"]
    Ship.objects.bulk_update(
        damaged, ["status", "hull_lost", "armour_lost", "crew_lost", "systems_lost"]
    )
    RepairOrder.objects.bulk_create(
        [
            RepairOrder(
                campaign=campaign,
                ship=s,
                yard=yards[n % factions],
                position=n,
                hull=8,
                armour=2,
                crew=1,
                systems=["beam-a"],
                unit_costs=unit_costs,
                cost=22,
                eta_turn=1,
            )
            for n, s in enumerate(damaged)
        ]
    )
    CampaignTurn.objects.create(campaign=campaign, number=1)
    return campaign


def _cpu(work) -> tuple[float, int]:
    """CPU seconds and queries of ``work()``, garbage collected first."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    gc.collect()
    with CaptureQueriesContext(connection) as queries:
        start = time.process_time()
        work()
        elapsed = time.process_time() - start
    return elapsed, len(queries)


def _anchor(campaign) -> float:
    """CPU seconds of writing the close's rows with plain ``executemany`` (module doc),
    rolled back."""
    from django.db import connection, transaction

    from campaign.turns.closing import ORDER_FIELDS, SHIP_FIELDS
    from campaign.turns.models import RepairOrder
    from factions.models import Ship

    qn = connection.ops.quote_name
    history = Ship.history.model
    tracked = [f.column for f in history.tracked_fields]
    extra = ["history_date", "history_change_reason", "history_type", "history_user_id"]
    ship_table, order_table = qn(Ship._meta.db_table), qn(RepairOrder._meta.db_table)
    orders = list(
        RepairOrder.objects.filter(campaign=campaign).values_list("pk", "ship_id", "yard_id")
    )
    ship_cols = [Ship._meta.get_field(f).column for f in SHIP_FIELDS]
    order_cols = [RepairOrder._meta.get_field(f).column for f in ORDER_FIELDS]
    factions = list(campaign.factions.values_list("pk", flat=True))
    now = time.time()  # any value of the columns' types will do

    def write() -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            sets = ", ".join(f"{qn(c)} = %s" for c in ship_cols)
            cursor.executemany(
                f"UPDATE {ship_table} SET {sets} WHERE id = %s",  # noqa: S608
                [(0, 0, 0, "[]", "active", ship) for _o, ship, _y in orders],
            )
            sets = ", ".join(f"{qn(c)} = %s" for c in order_cols)
            cursor.executemany(
                f"UPDATE {order_table} SET {sets} WHERE id = %s",  # noqa: S608
                [(8, 2, 1, '["beam-a"]', "done", 1, "", "{}", pk) for pk, _s, _y in orders],
            )
            cols = ", ".join(qn(c) for c in tracked + extra)
            picks = ", ".join(qn(c) for c in tracked)
            cursor.executemany(
                f"INSERT INTO {qn(history._meta.db_table)} ({cols}) "  # noqa: S608
                f"SELECT {picks}, %s, %s, '~', NULL FROM {ship_table} WHERE id = %s",
                [(_when(now), "turn 1: repaired", ship) for _o, ship, _y in orders],
            )
            cursor.executemany(
                "INSERT INTO turns_ledgerentry (campaign_id, faction_id, turn, kind, resources,"
                " technology, reason, reason_message, created_at)"
                " VALUES (%s, %s, 1, 'income', 10, 1, 'income', '{}', %s)",
                [(campaign.pk, f, _when(now)) for f in factions],
            )
            transaction.set_rollback(True)

    return _cpu(write)[0]


def _when(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


def _round(factions: int, ships: int, orders: int) -> dict:
    """One campaign of this size: anchor, close, anchor, reopen (side by side)."""
    from campaign.turns.closing import campaign_turn_close, campaign_turn_reopen

    campaign = generate_campaign(factions=factions, ships=ships, orders=orders)
    anchor_a = _anchor(campaign)
    close, close_q = _cpu(lambda: campaign_turn_close(campaign=campaign, user=SYSTEM))
    anchor_b = _anchor(campaign)
    reopen, reopen_q = _cpu(lambda: campaign_turn_reopen(campaign=campaign, user=SYSTEM, turn=1))
    return {
        "anchor": min(anchor_a, anchor_b),
        "close": close,
        "close_q": close_q,
        "reopen": reopen,
        "reopen_q": reopen_q,
    }


def _one_database(args: argparse.Namespace) -> None:
    """The figures on the database of ``DATABASE_URL`` (already set)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    name = connection.vendor
    sizes = {
        1: (args.factions, args.ships, args.orders),
        5: (args.factions * 5, args.ships * 5, args.orders * 5),
    }
    warm = {}
    for label in ("cold", "warm"):
        for k, size in sizes.items():
            r = _round(*size)
            warm[k] = r
            a = r["anchor"]
            print(
                f"{name:10} {label} ×{k} ({size[0]} factions, {size[1]} ships, {size[2]} repairs):"
                f" close {r['close']:.3f} s CPU ({r['close_q']} queries, ×{r['close'] / a:.1f}"
                f" anchor)  reopen {r['reopen']:.3f} s ({r['reopen_q']} queries,"
                f" ×{r['reopen'] / a:.1f} anchor)  anchor {a:.3f} s",
                flush=True,
            )
    one, five = warm[1], warm[5]
    print(
        f"{name:10} warm ×5/×1: close {five['close'] / one['close']:.1f}"
        f" (queries {one['close_q']} → {five['close_q']}), reopen"
        f" {five['reopen'] / one['reopen']:.1f} (queries {one['reopen_q']} →"
        f" {five['reopen_q']}), anchor {five['anchor'] / one['anchor']:.1f}"
        f"  (goal: ≤ 0.3 s CPU at ×1, ×5/×1 ≤ 5)",
        flush=True,
    )


def _postgres_url(server: str) -> str | None:
    """``server``'s URL with the bench database, made afresh; None if unreachable."""
    import psycopg

    try:
        with psycopg.connect(f"{server.rstrip('/')}/postgres", autocommit=True) as conn:
            # A fresh database each run: the figures do not depend on earlier runs' rows.
            conn.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{PG_DATABASE}"')
    except psycopg.OperationalError as exc:
        print(f"postgresql skipped: {exc}".splitlines()[0])
        return None
    return f"{server.rstrip('/')}/{PG_DATABASE}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--factions", type=int, default=20)
    parser.add_argument("--ships", type=int, default=1000)
    parser.add_argument("--orders", type=int, default=200)
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--here", action="store_true", help="only DATABASE_URL's database")
    args = parser.parse_args()
    if args.here:
        _one_database(args)
        return
    urls = [f"sqlite:///{tempfile.mkdtemp(prefix='admiralty-bench-')}/bench.sqlite3"]
    if not args.no_postgres:
        pg = _postgres_url(args.postgres)
        if pg:
            urls.append(pg)
    sizes = [f"--factions={args.factions}", f"--ships={args.ships}", f"--orders={args.orders}"]
    for url in urls:
        # One process per database: Django's settings hold one default database.
        subprocess.run(
            [sys.executable, "-m", "bench.turn_close", "--here", *sizes],
            env={**os.environ, "DATABASE_URL": url},
            check=True,
        )


if __name__ == "__main__":
    main()
