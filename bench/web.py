"""``python -m bench.web``: request rates of the fleet API and page under gunicorn on
loopback with production settings (``bench.server``), as ratios of the bare
``GET /api/factions`` — the "fast as fleets grow" figures. Printed, not asserted.

Measured twice: with the fleet page's and API's caches warm (``factions.fleet_cache``:
what readers get between writes; the goal is a ratio of 0.5 or more for the
100-ship fleet) and with them off (every answer built, as for the first reader after a
write).

Each URL is requested by ``--clients`` threads (one connection each) for ``--seconds``
in all, in five interleaved rounds; rates are requests per second of wall time on a
shared machine, so read the ratios, which compare URLs measured side by side, more than
the absolute figures.
"""

from __future__ import annotations

import argparse
import http.client
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from bench.server import production_server

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

URLS = (
    "/api/factions",
    "/api/fleets/fleet-3",
    "/api/fleets/fleet-100",
    "/api/openapi.json",
    "/fleets/fleet-3/",
    "/fleets/fleet-100/",
)


def rate(
    base: str, path: str, seconds: float, clients: int, headers: dict[str, str] | None = None
) -> float:
    """Requests per second answered 200 for ``path`` by ``clients`` threads, each request
    sent with ``headers`` (e.g. a session's ``Cookie``) besides ``Host``."""
    host = urlsplit(base)
    done = [0] * clients
    stop = time.monotonic() + seconds

    def worker(i: int) -> None:
        conn = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
        while time.monotonic() < stop:
            conn.request("GET", path, headers={"Host": "127.0.0.1", **(headers or {})})
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"{path}: HTTP {response.status}")
            done[i] += 1
        conn.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(done) / (time.monotonic() - start)


def measure(args: argparse.Namespace, urls: tuple[str, ...], extra_env: dict[str, str]) -> dict:
    """Requests per second of each of ``urls`` on a fresh production server."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        production_server(
            Path(tmp), setup=SETUP, workers=args.workers, extra_env=extra_env
        ) as base,
    ):
        for path in urls:  # warm-up: imports, schema cache, connections, fleet caches
            rate(base, path, 0.3, 1)
        # Interleaved rounds: a neighbour's load on the shared machine hits every URL
        # alike instead of whichever was being measured at the time.
        rounds = 5
        figures = dict.fromkeys(urls, 0.0)
        for _ in range(rounds):
            for path in urls:
                figures[path] += rate(base, path, args.seconds / rounds, args.clients) / rounds
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per URL (default 3)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args(argv)
    print(f"Web, gunicorn {args.workers} workers, production settings, loopback:")
    for title, urls, extra_env in (
        ("fleet caches warm (factions.fleet_cache; a reader between writes)", URLS, {}),
        (
            "fleet caches off (FLEET_CACHE_SECONDS=0; every answer built, as after a write)",
            tuple(u for u in URLS if "openapi" not in u),
            {"FLEET_CACHE_SECONDS": "0"},
        ),
    ):
        figures = measure(args, urls, extra_env)
        bare = figures["/api/factions"]
        print(f"  {title}:")
        for path, value in figures.items():
            print(f"    {path:24s} {value:8.1f} req/s   ratio to /api/factions {value / bare:.2f}")


if __name__ == "__main__":
    main()
