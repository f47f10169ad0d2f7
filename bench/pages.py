"""``python -m bench.pages``: request rates of the pages people wait on at the table —
the campaign turn page (an organiser's and a player's), the campaign page (the public's
and an organiser's) and the fleet page — under gunicorn on loopback with production
settings (``bench.server``), as ratios of the bare ``GET /api/factions`` measured side by
side in the same run (the goal: each at 0.5 or more). Printed, not asserted.

The league is the sample campaign after its first turn (``manage.py load_sample``, then
``campaign.turns.demo.sample_turn_demo``: turn 2 open, repairs queued at the yards, two
fleets under way on the star map), an organiser and a Norwegian player logged in (a
session each, made by the set-up).

Measured twice: with the caches warm (``factions.fleet_cache``, the turn and campaign pages'
bodies of ``campaign.core.page_cache``: what readers get between writes) and with them off
(``FLEET_CACHE_SECONDS=0 TURN_CACHE_SECONDS=0``: every answer built, as for the first reader
after a write).

Each URL is requested by ``--clients`` threads (one connection each) for ``--seconds`` in
all, in five interleaved rounds (``bench.web.rate``); rates are requests per second of wall
time on a shared machine, so read the ratios, which compare URLs measured side by side,
more than the absolute figures. The slow pages answer only a few requests a round on a
loaded machine: give them ``--seconds 10`` or more for steadier ratios.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from functools import partial
from pathlib import Path

from bench.server import production_server
from bench.web import interleaved, rate

#: Set-up run by ``manage.py shell``: the sample after its first turn, and a session for
#: an organiser and a player whose keys are written to ``{keys}``.
SETUP = """
import json
from datetime import timedelta
from pathlib import Path
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, BACKEND_SESSION_KEY
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from campaign.league.models import Membership
from campaign.sample.loader import sample_load
from campaign.turns.demo import sample_turn_demo
from factions.models import Faction
campaign = sample_load().campaign
sample_turn_demo(campaign=campaign)
User = get_user_model()
keys = {}
for name, role, faction in (("organiser", "organiser", None),
                            ("player", "player", "kongeriket-norge")):
    user = User.objects.create_user(name, password="pw-bench-12345!")
    Membership.objects.create(
        campaign=campaign, user=user, role=role,
        faction=Faction.objects.get(slug=faction) if faction else None)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.set_expiry(timedelta(days=1))
    session.create()
    keys[name] = session.session_key
Path({keys!r}).write_text(json.dumps(keys))
"""

BARE = "/api/factions"
#: (label, path, who: None for the public or a key of the set-up's sessions)
PAGES = (
    ("bare endpoint", BARE, None),
    ("turn page, organiser", "/campaigns/sample/turn/", "organiser"),
    ("turn page, player", "/campaigns/sample/turn/", "player"),
    ("campaign page, public", "/campaigns/sample/", None),
    ("campaign page, organiser", "/campaigns/sample/", "organiser"),
    ("fleet page, public (13 ships)", "/fleets/qatzrin-5th-long-range-incursion-fleet/", None),
    ("fleet page, organiser", "/fleets/qatzrin-5th-long-range-incursion-fleet/", "organiser"),
)


def measure(args: argparse.Namespace, extra_env: dict[str, str]) -> dict[str, float]:
    """Requests per second of each of :data:`PAGES` on a fresh production server."""
    with tempfile.TemporaryDirectory() as tmp:
        keys_path = Path(tmp) / "sessions.json"
        setup = SETUP.replace("{keys!r}", repr(str(keys_path)))
        with production_server(
            Path(tmp) / "server", setup=setup, workers=args.workers, extra_env=extra_env
        ) as base:
            keys = json.loads(keys_path.read_text())
            headers = {who: {"Cookie": f"sessionid={key}"} for who, key in keys.items()} | {
                None: {}
            }
            return interleaved(
                {
                    label: partial(rate, base, path, headers=headers[who])
                    for label, path, who in PAGES
                },
                args.seconds,
                args.clients,
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per URL (default 3)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args(argv)
    print(f"Pages at the table, gunicorn {args.workers} workers, production settings, loopback:")
    for title, extra_env in (
        ("caches warm (a reader between writes)", {}),
        ("caches off (FLEET_ and TURN_CACHE_SECONDS=0; every answer built, as after a write)",
         {"FLEET_CACHE_SECONDS": "0", "TURN_CACHE_SECONDS": "0"}),
    ):  # fmt: skip
        figures = measure(args, extra_env)
        bare = figures["bare endpoint"]
        print(f"  {title}:")
        for label, value in figures.items():
            print(f"    {label:32s} {value:8.1f} req/s   ratio to {BARE} {value / bare:.2f}")


if __name__ == "__main__":
    main()
