"""``python -m bench.turn_close``: close a turn of a generated campaign, timed.

20 factions, 1 000 ships, 200 repair orders in progress (defaults; ``--factions``,
``--ships``, ``--orders``): prints the time ``campaign_turn_close`` takes (target < 5 s) and
its query count, then the count for a quarter of the orders, which must be the same (bulk
updates: the count does not grow with the ships repaired). Runs on a fresh SQLite file
unless ``DATABASE_URL`` is set.

Measured (2-core shared machine): SQLite 0.65 s, 21 queries (16 with 50 orders: SQLite
caps the parameters of one statement, so Django splits the bulk writes in batches of
about 100 ship updates and 50 history rows); PostgreSQL 0.71 s, 16 queries either way.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from campaign.core.actors import SYSTEM


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


def _close(campaign) -> tuple[float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # After django.setup() (main), like the models.
    from campaign.turns.closing import campaign_turn_close

    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        campaign_turn_close(campaign=campaign, user=SYSTEM)
        elapsed = time.perf_counter() - start
    return elapsed, len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--factions", type=int, default=20)
    parser.add_argument("--ships", type=int, default=1000)
    parser.add_argument("--orders", type=int, default=200)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = (
            f"sqlite:///{tempfile.mkdtemp(prefix='admiralty-bench-')}/bench.sqlite3"
        )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    big = generate_campaign(factions=args.factions, ships=args.ships, orders=args.orders)
    seconds, queries = _close(big)
    small = generate_campaign(
        factions=args.factions, ships=args.ships, orders=max(args.orders // 4, 1)
    )
    _s, small_queries = _close(small)
    print(
        f"turn close: {args.factions} factions, {args.ships} ships, {args.orders} repair orders: "
        f"{seconds:.2f} s wall (target < 5 s), {queries} queries "
        f"({small_queries} with {max(args.orders // 4, 1)} orders)"
    )


if __name__ == "__main__":
    main()
