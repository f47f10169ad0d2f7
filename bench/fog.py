"""``python -m bench.fog``: the fog of war's cost on the star map, timed.

The campaign of ``bench.starmap`` (200 systems, 20 factions, 1 000 ships in 200 fleets,
half of them moving), with every other fleet hidden and a player of the first faction.
Prints:

- the turn close with the sightings every faction records (``campaign.fog.sightings``),
  its sightings written and query count;
- the map page as that player (``/campaigns/<slug>/map/``: the sensor reach of its
  territories and fleets, contacts, last-known positions) over 10 requests, median
  (the map's target: < 200 ms), and its query count.

Runs on a fresh SQLite file unless ``DATABASE_URL`` is set.

Measured (2-core shared machine, SQLite): close 2.68 s with the 38 meetings' battles
drafted at its commit, 161 sightings; the player's map page 75 ms median, 19 queries.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time


def main() -> None:
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = (
            f"sqlite:///{tempfile.mkdtemp(prefix='admiralty-bench-')}/bench.sqlite3"
        )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings

    from bench.starmap import generate
    from campaign.core.actors import SYSTEM
    from campaign.fog.models import Sighting
    from campaign.league.models import Membership
    from campaign.turns.closing import campaign_turn_close
    from factions.models import Fleet

    call_command("migrate", verbosity=0)
    campaign, _organiser = generate(systems=200, fleets=200, ships=1000)
    fleets = Fleet.objects.filter(position__campaign=campaign).order_by("pk")
    Fleet.objects.filter(pk__in=list(fleets.values_list("pk", flat=True))[1::2]).update(hidden=True)
    faction = campaign.factions.order_by("pk").first()
    player = get_user_model().objects.create_user(f"fog-bench-{time.time_ns()}")
    Membership.objects.create(
        campaign=campaign, user=player, role=Membership.Role.PLAYER, faction=faction
    )
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        with transaction.atomic():
            campaign_turn_close(campaign=campaign, user=SYSTEM)
        seconds = time.perf_counter() - start
    sightings = Sighting.objects.filter(campaign=campaign).count()
    print(
        f"turn close with the fog's sightings: {seconds:.2f} s wall, {sightings} sightings "
        f"written; {len(queries)} queries in all (the meetings' battles included)"
    )
    with override_settings(ALLOWED_HOSTS=["*"]):
        client = Client()
        client.force_login(player)
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
        f"star map page as a player (fog of war): 200 systems, 200 fleets (100 hidden): "
        f"{statistics.median(times) * 1000:.0f} ms median server time (target < 200 ms), "
        f"{len(queries)} queries"
    )


if __name__ == "__main__":
    main()
