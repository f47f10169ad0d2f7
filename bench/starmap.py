"""``python -m bench.starmap``: the star map's turn close and map page, timed.

A generated campaign: 200 systems on a 20 × 10 grid (map units), each linked to its right
and lower neighbours (travel 1–3 turns, 370 links), 20 factions, 1 000 ships in 200
fleets (5 ships each): 100 fleets on links arriving at this close, 100 in systems with a
queued move order 3 systems away (``--systems``, ``--fleets``, ``--ships``). Prints:

- the time ``campaign_turn_close`` takes with those moves (target < 5 s), its query count,
  the meetings' battles it drafted (after the commit, timed with it);
- the map page (``/campaigns/<slug>/map/``, as an organiser: every fleet) server time over
  10 requests, median (target < 200 ms), and its query count.

Runs on a fresh SQLite file unless ``DATABASE_URL`` is set.

Measured (2-core shared machine, SQLite): close 0.54 s, then 38 meetings drafted in
3.9 s after the commit (1 455 queries in all); map page 141 ms median, 14 queries.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time


def generate(*, systems: int, fleets: int, ships: int):
    """The campaign (turn 1 open), its organiser; see the module docstring."""
    from django.contrib.auth import get_user_model

    from campaign.league.models import Campaign, Membership
    from campaign.starmap.models import FleetPosition, MapMove, StarLink, StarSystem
    from campaign.turns.models import CampaignTurn
    from factions.models import Faction, Fleet, Ship, ShipClass

    slug = f"map-bench-{time.time_ns()}"
    campaign = Campaign.objects.create(name="Map bench", slug=slug)
    cols = 20
    rows = -(-systems // cols)
    made = StarSystem.objects.bulk_create(
        StarSystem(
            campaign=campaign,
            name=f"System {i}",
            slug=f"s{i}",
            x=25 + (i % cols) * 50,
            y=25 + (i // cols) * (950 // max(rows - 1, 1)),
        )
        for i in range(systems)
    )
    links = []
    for i, s in enumerate(made):
        for j in (i + 1 if (i + 1) % cols else None, i + cols):
            if j is not None and j < systems:
                links.append(
                    StarLink(campaign=campaign, a=s, b=made[j], travel_turns=1 + (i + j) % 3)
                )
    links = StarLink.objects.bulk_create(links)
    factions = []
    for n in range(20):
        f = Faction.objects.create(name=f"{slug} faction {n}", slug=f"{slug}-{n}")
        campaign.factions.add(f)
        cls = ShipClass.objects.create(
            faction=f, name="Frigate", slug="frigate", mass=24, hull_boxes=8
        )
        factions.append((f, cls))
    fleet_rows = Fleet.objects.bulk_create(
        Fleet(faction=factions[n % 20][0], name=f"Fleet {n}", slug=f"{slug}-fleet-{n}")
        for n in range(fleets)
    )
    Ship.objects.bulk_create(
        Ship(fleet=fleet_rows[n % fleets], ship_class=factions[(n % fleets) % 20][1])
        for n in range(ships)
    )
    positions, moves = [], []
    for n, fleet in enumerate(fleet_rows):
        if n % 2:
            link = links[(n * 7) % len(links)]
            positions.append(
                FleetPosition(
                    campaign=campaign,
                    fleet=fleet,
                    link=link,
                    heading_id=link.b_id,
                    departed_turn=1,
                    arrival_turn=1,
                )
            )
        else:
            start = made[(n * 13) % (systems - 3 * cols)]
            positions.append(FleetPosition(campaign=campaign, fleet=fleet, system=start))
            route = [start.pk, start.pk + cols, start.pk + 2 * cols, start.pk + 3 * cols]
            moves.append(
                MapMove(
                    campaign=campaign,
                    turn=1,
                    fleet=fleet,
                    origin=start,
                    destination_id=route[-1],
                    route=route,
                    travel_turns=3,
                )
            )
    FleetPosition.objects.bulk_create(positions)
    MapMove.objects.bulk_create(moves)
    CampaignTurn.objects.create(campaign=campaign, number=1)
    user = get_user_model().objects.create_user(f"{slug}-org", password="bench-pw-1!")
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.ORGANISER)
    return campaign, user


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=200)
    parser.add_argument("--fleets", type=int, default=200)
    parser.add_argument("--ships", type=int, default=1000)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = (
            f"sqlite:///{tempfile.mkdtemp(prefix='admiralty-bench-')}/bench.sqlite3"
        )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings

    from battles.models import Battle
    from campaign.core.actors import SYSTEM
    from campaign.turns.closing import campaign_turn_close

    call_command("migrate", verbosity=0)
    campaign, organiser = generate(systems=args.systems, fleets=args.fleets, ships=args.ships)
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        # The meetings' battles are drafted once the close commits (the outer block).
        with transaction.atomic():
            campaign_turn_close(campaign=campaign, user=SYSTEM)
            closed = time.perf_counter()
        seconds, drafting = closed - start, time.perf_counter() - closed
    battles = Battle.objects.filter(campaign=campaign).count()
    print(
        f"star map turn close: 20 factions, {args.ships} ships, {args.fleets} fleets moving "
        f"({args.fleets // 2} on links), {args.systems} systems: {seconds:.2f} s wall "
        f"(target < 5 s), then {battles} meetings' battles drafted after the commit in "
        f"{drafting:.2f} s; {len(queries)} queries in all"
    )
    with override_settings(ALLOWED_HOSTS=["*"]):
        client = Client()
        client.force_login(organiser)
        url = f"/campaigns/{campaign.slug}/map/"
        client.get(url)  # templates compiled, caches warm
        times = []
        for _ in range(10):
            start = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            times.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
    print(
        f"star map page: {args.systems} systems, {args.fleets} fleets: "
        f"{statistics.median(times) * 1000:.0f} ms median server time (target < 200 ms), "
        f"{len(queries)} queries"
    )


if __name__ == "__main__":
    main()
