"""``python -m bench.web``: request rates of the fleet API and page and of the battle pages
under gunicorn on loopback with production settings (``bench.server``), as ratios of the
bare ``GET /api/factions`` — the "fast as fleets grow" and "pages at the table" figures
(the goal: a ratio of 0.5 or more). Printed, not asserted.

The battle pages are the sample campaign's (``load_sample``, its Skirmish at Mieska
resolved as ``manage.py demo`` does: 644 log lines, 10 units; the Colonisation compromise
recorded from the table: 36 units), read by the public and by an organiser (a session of
a user given that role): the battle page, the set-up form, the record form of a draft
recorded battle and the turn page of a battle played two turns of six.

Measured twice: with the caches warm (``factions.fleet_cache``, ``battles.reports.page_cache``:
what readers get between writes) and with them off (``FLEET_CACHE_SECONDS=0``,
``BATTLE_CACHE_SECONDS=0``: every answer built, as for the first reader after a write).

Each URL is requested by ``--clients`` threads (one connection each) for ``--seconds``
in all, in five interleaved rounds; rates are requests per second of wall time on a
shared machine, so read the ratios, which compare URLs measured side by side, more than
the absolute figures.
"""

from __future__ import annotations

import argparse
import http.client
import json
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

from bench.server import manage, production_env, production_server

SETUP = """
import json
from pathlib import Path
from factions.models import Faction, Fleet, Ship, ShipClass
data = json.loads(Path("factions/catalogue/qatzrin.json").read_text("utf-8"))
q = Faction.objects.create(name="Qatzrin", slug="qatzrin")
classes = []
for d in data["classes"][:5]:
    classes.append(ShipClass.objects.create(
        faction=q, name=d["name"], slug=d["name"].lower().replace("'", ""),
        mass=d["mass"], hull_boxes=d["hull"]["boxes"], design=d))
for slug, n in (("fleet-3", 3), ("fleet-100", 100)):
    f = Fleet.objects.create(faction=q, name=slug, slug=slug)
    Ship.objects.bulk_create(
        [Ship(ship_class=classes[i % 5], fleet=f, name=f"S{i}") for i in range(n)])
"""

#: The sample campaign with its battles (see the module doc), an organiser and their
#: session; writes ``{"cookie": ..., "battles": {name: pk}}`` to ``OUT`` (formatted in).
BATTLES_SETUP = """
import json
from pathlib import Path
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from battles.models import Battle
from battles.play.game_turns import turn_play_advance, turn_play_start
from battles.services import battle_resolve
from battles.services.setup import SideSpec, battle_create, eligible_ships
from campaign.core.actors import SYSTEM
from campaign.league.models import Campaign, Membership
call_command("load_sample", verbosity=0)
for b in Battle.objects.filter(status="draft", mode="resolved", seed__isnull=False):
    battle_resolve(battle=b, seed=b.seed, user=SYSTEM)
c = Campaign.objects.get(slug="sample")
org = get_user_model().objects.create_user("bench-organiser", password="bench-pass-9!")
Membership.objects.create(campaign=c, user=org, role=Membership.Role.ORGANISER)
def sides():
    by = {}
    for s in eligible_ships(campaign=c):
        by.setdefault(s.fleet.faction, []).append(s.pk)
    return [SideSpec(faction=f, ships=ids[:3]) for f, ids in list(by.items())[:2]]
turns = battle_create(campaign=c, name="Bench turns", sides=sides(), user=org)
Battle.objects.filter(pk=turns.pk).update(mode="turns")
turns.refresh_from_db()
turn_play_start(user=SYSTEM, battle=turns, seed=5, max_turns=6)
for _ in range(2):
    turn_play_advance(battle=turns, user=SYSTEM, force=True)
record = battle_create(campaign=c, name="Bench record", sides=sides(), user=org)
Battle.objects.filter(pk=record.pk).update(mode="recorded")
client = Client()
client.force_login(org)
Path(OUT).write_text(json.dumps({
    "cookie": f"{settings.SESSION_COOKIE_NAME}={client.session.session_key}",
    "battles": {b.name: b.pk for b in Battle.objects.all()},
}))
"""

URLS = (
    "/api/factions",
    "/api/fleets/fleet-3",
    "/api/fleets/fleet-100",
    "/api/openapi.json",
    "/fleets/fleet-3/",
    "/fleets/fleet-100/",
)


def battle_urls(battles: dict[str, int]) -> tuple[tuple[str, str], ...]:
    """``(label, path)`` of the battle pages measured; an ``org`` label is read as the
    organiser."""
    mieska, miranda = battles["Skirmish at Mieska"], battles["Colonisation compromise"]
    return (
        ("battle Mieska, public", f"/battles/{mieska}/"),
        ("battle Miranda, public", f"/battles/{miranda}/"),
        ("battle Mieska, org", f"/battles/{mieska}/"),
        ("set-up form, org", "/campaigns/sample/battles/new/"),
        ("record form, org", f"/battles/{battles['Bench record']}/record/"),
        ("turn page, org", f"/battles/{battles['Bench turns']}/turns/"),
    )


def rate(
    base: str,
    path: str,
    seconds: float,
    clients: int,
    cookie: str = "",
    headers: dict[str, str] | None = None,
) -> float:
    """Requests per second answered 200 for ``path`` by ``clients`` threads (``cookie``:
    a ``Cookie`` header to send, e.g. a session; ``headers``: more headers to send)."""
    host = urlsplit(base)
    done = [0] * clients
    stop = time.monotonic() + seconds
    sent = {"Host": "127.0.0.1", **({"Cookie": cookie} if cookie else {}), **(headers or {})}

    def worker(i: int) -> None:
        conn = http.client.HTTPConnection(host.hostname, host.port, timeout=120)
        while time.monotonic() < stop:
            conn.request("GET", path, headers=sent)
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"{path}: HTTP {response.status}")
            done[i] += 1
        conn.close()

    failed: list[BaseException] = []

    def guarded(i: int) -> None:
        try:
            worker(i)
        except BaseException as exc:  # a failed URL stops the bench, not just its thread
            failed.append(exc)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(clients)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failed:
        raise failed[0]
    return sum(done) / (time.monotonic() - start)


def measure(
    args: argparse.Namespace,
    workdir: Path,
    urls: tuple[tuple[str, str], ...],
    extra_env: dict[str, str],
    cookie: str,
) -> dict[str, float]:
    """Requests per second of each ``(label, path)`` of ``urls`` on a production server
    over ``workdir``'s database; a label holding ``org`` is read with ``cookie``."""
    with production_server(workdir, workers=args.workers, extra_env=extra_env) as base:

        def one(label: str, path: str, seconds: float, clients: int) -> float:
            return rate(base, path, seconds, clients, cookie if "org" in label else "")

        return interleaved(
            {label: partial(one, label, path) for label, path in urls}, args.seconds, args.clients
        )


def interleaved(
    probes: dict[str, Callable[[float, int], float]], seconds: float, clients: int, rounds: int = 5
) -> dict[str, float]:
    """Requests per second of each labelled probe (``probe(seconds, clients)``), after a
    warm-up of each (imports, schema cache, connections, caches), measured in ``rounds``
    interleaved rounds: a neighbour's load on the shared machine hits every URL alike
    instead of whichever was being measured at the time."""
    for probe in probes.values():
        probe(0.3, 1)
    figures = dict.fromkeys(probes, 0.0)
    for _ in range(rounds):
        for label, probe in probes.items():
            figures[label] += probe(seconds / rounds, clients) / rounds
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per URL (default 3)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args(argv)
    print(f"Web, gunicorn {args.workers} workers, production settings, loopback:")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        out = workdir / "bench-web.json"
        setup = SETUP + f"OUT = {str(out)!r}\n" + BATTLES_SETUP
        fleet_urls = tuple((u, u) for u in URLS)
        # The database is set up once; each server below runs on it, with the same secret
        # key (the organiser's session is signed with it).
        env = production_env(workdir)
        key = {"DJANGO_SECRET_KEY": env["DJANGO_SECRET_KEY"]}
        manage(env, "migrate", "--noinput", "-v0")
        manage(env, "shell", "-c", setup)
        made = json.loads(out.read_text("utf-8"))
        for title, extra_env in (
            ("caches warm (a reader between writes)", key),
            (
                "caches off (FLEET_CACHE_SECONDS=0, BATTLE_CACHE_SECONDS=0; every answer "
                "built, as for the first reader after a write)",
                {**key, "FLEET_CACHE_SECONDS": "0", "BATTLE_CACHE_SECONDS": "0"},
            ),
        ):
            urls = fleet_urls + battle_urls(made["battles"])
            if "BATTLE_CACHE_SECONDS" in extra_env:
                urls = tuple(u for u in urls if "openapi" not in u[1])
            figures = measure(args, workdir, urls, extra_env, made["cookie"])
            bare = figures["/api/factions"]
            print(f"  {title}:")
            for (label, path), value in zip(urls, figures.values(), strict=True):
                name = label if label == path else f"{label} {path}"
                print(
                    f"    {name:48s} {value:8.1f} req/s   ratio to /api/factions {value / bare:.2f}"
                )


if __name__ == "__main__":
    main()
