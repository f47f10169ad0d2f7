"""A season of the sample campaign, played as its people would through the pages and the API.

The organiser of the freshly loaded sample invites a Norwegian and a Qatzrin player by
e-mail address (each follows the mailed link, signs up, then the confirmation mailed to
that address), points the campaign's webhook at a local receiver and opens turn 1. The
players order their fleets to the Outer Belt on the star map: the Norwegian fleet arrives
from Trøndelag at the close of turn 1 (a 1-turn link), the Qatzrin 5th fleet from its home
port at the close of turn 2 (2 turns), where they meet and their battle is drafted. The
organiser auto-resolves it with a fixed seed: renown for the commanders present, victory
points and the standings' charts follow; turn 3 closes. Every e-mail and webhook post is
counted by kind and recipient, and the campaign goes out and comes back into an empty
instance byte for byte.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from battles.models import Battle, Participant, VictoryAward
from campaign.league.models import Membership
from campaign.notify.models import Delivery
from campaign.sample.loader import sample_load
from factions.commanders.models import RenownAward
from tests.campaign.exchange.conftest import empty_instance
from tests.campaign.notify import conftest as notify_fixtures

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

#: The notification tests' local webhook receiver (fixture ``receiver``).
webhook_receiver = notify_fixtures.receiver

SLUG = "sample"
API = f"/api/campaigns/{SLUG}"
PASSWORD = "a-long passphrase 42"
NORGE = "norge-steffen-konalson-deep-incursion-fleet"
QATZRIN = "qatzrin-5th-long-range-incursion-fleet"
#: The standings' columns of a faction, in the order the page shows them.
SCORE_COLUMNS = (
    "vp", "battles_vp", "objectives_vp", "destroyed_vp", "holdings_vp",
    "mass_destroyed", "mass_lost",
)  # fmt: skip
SERIES = ("vp_series", "points_series", "mass_series")


def _json(client: Client, method: str, path: str, body=None, status: int = 200):
    response = getattr(client, method)(path, body, content_type="application/json")
    assert response.status_code == status, (path, response.content)
    return response.json() if response.content else None


def _link(message, pattern: str) -> str:
    return re.search(rf"http://testserver({pattern})", message.body)[1]


def _join(address: str, username: str, capture) -> Client:
    """The invitation mailed to ``address`` followed by a newcomer: sign up, then the
    confirmation mailed to the same address; returns their logged-in client."""
    invitation = next(m for m in reversed(mail.outbox) if m.to == [address])
    url = _link(invitation, r"/invitations/[^/\s]+/")
    client = Client()
    with capture(execute=True):
        signed_up = client.post(url, {"username": username, "password": PASSWORD})
    assert signed_up.status_code == 200  # "we sent a confirmation link"
    confirm = _link(mail.outbox[-1], r"/invitations/[^/\s]+/confirm/[^/\s]+/")
    assert mail.outbox[-1].to == [address] and username in mail.outbox[-1].body
    assert client.get(confirm).status_code == 200
    code = confirm.rstrip("/").rsplit("/", 1)[1]
    joined = client.post(confirm, {"confirmation": code})
    assert joined.status_code == 302 and joined["Location"] == f"/campaigns/{SLUG}/"
    return client


def _where(client: Client, *slugs: str) -> dict[str, tuple]:
    """Where the map API puts each fleet: (system, heading, arrival turn)."""
    fleets = {f["slug"]: f for f in _json(client, "get", f"{API}/map")["fleets"]}
    return {
        s: (fleets[s]["system"], fleets[s]["heading"], fleets[s]["arrival_turn"]) for s in slugs
    }


def _turn(client: Client, action: str, capture) -> dict:
    """Open or close the turn as the organiser, with the on-commit work run."""
    with capture(execute=True):
        return _json(client, "post", f"{API}/turn/{action}")


def test_three_turns_of_the_sample(django_capture_on_commit_callbacks, webhook_receiver, settings):
    capture, receiver = django_capture_on_commit_callbacks, webhook_receiver
    settings.APP_BASE_URL = "https://league.example"
    campaign = sample_load().campaign
    User = get_user_model()
    organiser = User.objects.create_user("orla", email="orla@example.org", password=PASSWORD)
    Membership.objects.create(campaign=campaign, user=organiser, role="organiser")
    org = Client()
    org.force_login(organiser)

    # -- Invitations by address, each taken through the two mailed links.
    with capture(execute=True):
        for faction, address in (("kongeriket-norge", "nils"), ("qatzrin", "tamar")):
            answer = _json(
                org,
                "post",
                f"{API}/invitations",
                {"role": "player", "faction": faction, "email": f"{address}@example.org"},
                status=201,
            )
            assert "@" not in json.dumps(answer["link"])
    assert [m.to for m in mail.outbox] == [["nils@example.org"], ["tamar@example.org"]]
    nils = _join("nils@example.org", "nils", capture)
    tamar = _join("tamar@example.org", "tamar", capture)
    members = Membership.objects.filter(campaign=campaign).order_by("pk")
    rows = [(m.user.username, m.role, m.faction and m.faction.slug, m.user.email) for m in members]
    assert rows == [
        ("orla", "organiser", None, "orla@example.org"),
        ("nils", "player", "kongeriket-norge", "nils@example.org"),
        ("tamar", "player", "qatzrin", "tamar@example.org"),
    ]  # fmt: skip
    assert _json(org, "get", f"{API}/invitations") == []  # both used up

    # -- The campaign's webhook, at the local receiver (allowed by the tests' setting).
    hook = {"url": receiver.url, "kinds": ["turn_opened", "battle_concluded"]}
    assert _json(org, "put", f"{API}/webhook", hook)["url"] == receiver.url
    mail.outbox.clear()

    # -- Turn 1: both players send their fleet to the Outer Belt.
    _turn(org, "open", capture)
    moves = [
        _json(
            player, "post", f"{API}/map/moves", {"fleet": fleet, "destination": "outer-belt"}, 201
        )
        for player, fleet in ((nils, NORGE), (tamar, QATZRIN))
    ]
    assert [(m["route"], m["travel_turns"], m["status"]) for m in moves] == [
        (["trondelag", "outer-belt"], 1, "queued"),
        (["qatzrin", "outer-belt"], 2, "queued"),
    ]
    # A player may not order a rival's fleet: it does not exist for them.
    rival = {"fleet": QATZRIN, "destination": "trondelag"}
    assert nils.post(f"{API}/map/moves", rival, content_type="application/json").status_code == 404
    closed = _turn(org, "close", capture)["last_closed"]
    assert [(m["name"], m["to"], m["arrival_turn"]) for m in closed["summary"]["map_moves"]] == [
        ("5th long-range incursion fleet", "Outer Belt – Qatzrin", 2),
        ("Steffen Konalson deep incursion fleet", "Outer Belt", None),
    ]
    assert _where(org, NORGE, QATZRIN) == {
        NORGE: ("outer-belt", None, None),
        QATZRIN: (None, "outer-belt", 2),
    }
    assert not Battle.objects.filter(system__slug="outer-belt").exists()  # no meeting yet

    # -- Turn 2: the Qatzrin fleet arrives and meets the Norwegians; the close drafts it.
    _turn(org, "open", capture)
    _turn(org, "close", capture)
    assert _where(org, NORGE, QATZRIN) == {
        NORGE: ("outer-belt", None, None),
        QATZRIN: ("outer-belt", None, None),
    }
    battle = Battle.objects.get(system__slug="outer-belt")
    assert (battle.name, battle.status, battle.campaign_turn) == ("Outer Belt, tour 2", "draft", 2)
    sides = {s.faction.slug: s for s in battle.sides.all()}
    assert {f: s.fleet.slug for f, s in sides.items()} == {
        "kongeriket-norge": NORGE,
        "qatzrin": QATZRIN,
    }
    ships = {
        f: sorted(str(p.ship) for p in s.participants.all() if p.ship) for f, s in sides.items()
    }
    # Every free ship of both fleets; the Saryat squadron and the Tzayad of the Konyet
    # squadron wait in the draft Skirmish at Mieska, so are not proposed here.
    assert ships == {
        "kongeriket-norge": ["Steffen Konalson", "Tordenskjold #41", "Tordenskjold #42"],
        "qatzrin": ["Kashat-E #8", "Kashat-E #9", "Lydia", "Nabra-Suleyman", "Namadira", "Nimrod"],
    }  # fmt: skip

    # -- Turn 3: the organiser auto-resolves the meeting with a fixed seed.
    _turn(org, "open", capture)
    with capture(execute=True):
        resolved = _json(org, "post", f"/api/battles/{battle.pk}/resolve", {"seed": 7})
    assert (resolved["status"], resolved["winner"], resolved["game_turns"]) == (
        "concluded",
        "qatzrin",
        5,
    )
    fates = {
        str(p.ship): p.fate
        for p in Participant.objects.filter(side__battle=battle, ship__isnull=False)
    }
    assert fates == {
        "Steffen Konalson": "fled",
        "Tordenskjold #41": "destroyed", "Tordenskjold #42": "destroyed",
        "Kashat-E #8": "damaged", "Kashat-E #9": "destroyed", "Nimrod": "damaged",
        "Lydia": "fled", "Namadira": "damaged", "Nabra-Suleyman": "unharmed",
    }  # fmt: skip

    # Renown (factions/commanders/renown.py): the Qatzrin admiral, the Konyet squadron's
    # commander and Lydia's captain were there; the Darmila squadron has no commander and
    # the Norwegian fleet none at all. The winners: +2 victory, +1 for each of the two
    # Tordenskjolds destroyed; Lydia came back damaged: +1 for her captain.
    awards = RenownAward.objects.filter(battle=battle).order_by("pk")
    assert [(a.commander.name, a.kind, a.points) for a in awards] == [
        ("Admiral Yoje Nesmer", "victory", 2),
        ("Admiral Yoje Nesmer", "kills", 2),
        ("Commandant Detter Gorion", "victory", 2),
        ("Commandant Detter Gorion", "kills", 2),
        ("Commandant Benjamin Lansky", "victory", 2),
        ("Commandant Benjamin Lansky", "kills", 2),
        ("Commandant Benjamin Lansky", "survival", 1),
    ]
    lansky = _json(tamar, "get", f"/api/commanders/{awards[4].commander_id}")
    assert lansky["renown"] == 5

    # Victory points (battles/scoring, default rules): the victory 3; 640 points of
    # Tordenskjolds destroyed (2 × 320) give 6, the Kashat-E's 211 give Norge 2.
    battle_vp = VictoryAward.objects.filter(battle=battle).order_by("pk")
    rows = [
        (a.faction.slug, a.membership.user.username, a.turn, a.reason, a.count, a.points)
        for a in battle_vp
    ]
    assert rows == [
        ("kongeriket-norge", "nils", 2, "defeat", 1, 0),
        ("kongeriket-norge", "nils", 2, "destroyed", 211, 2),
        ("qatzrin", "tamar", 2, "victory", 1, 3),
        ("qatzrin", "tamar", 2, "destroyed", 640, 6),
    ]  # fmt: skip

    # -- Turn 3 closes: every close adds a VP a star system held (Norge holds New Bergen,
    # Arendal, Trøndelag and Kristiansand; Qatzrin its home port; Miranda is shared).
    _turn(org, "close", capture)
    standings = _json(nils, "get", f"{API}/standings")
    table = {f["faction"]: [f[k] for k in SCORE_COLUMNS] for f in standings["factions"]}
    assert table == {
        "kongeriket-norge": [14, 0, 0, 2, 12, 63, 186],
        "qatzrin": [12, 3, 0, 6, 3, 186, 63],
        # The sample's Colonisation compromise (turn 1): the Phalon victory 3, 1 448
        # points of G+ ships destroyed 14; 1 315 points of Phalon ships destroyed 13.
        "collectif-g-plus": [13, 0, 0, 13, 0, 344, 426],
        "phalon": [17, 3, 0, 14, 0, 426, 344],
    }
    assert [f["faction"] for f in standings["factions"]] == [
        "phalon", "kongeriket-norge", "collectif-g-plus", "qatzrin",
    ]  # fmt: skip
    assert standings["players"] == [
        {"name": "nils", "faction": "kongeriket-norge", "vp": 14},
        {"name": "tamar", "faction": "qatzrin", "vp": 12},
    ]
    series = {k: {s["faction"]: s["values"] for s in standings[k]} for k in SERIES}
    assert standings["turns"] == standings["strength_turns"] == [1, 2, 3]
    assert series["vp_series"]["kongeriket-norge"] == [4, 10, 14]
    assert series["vp_series"]["qatzrin"] == [1, 11, 12]
    assert series["vp_series"]["phalon"] == [17, 17, 17]
    assert series["vp_series"]["collectif-g-plus"] == [13, 13, 13]
    # Strength at each close: the battle, fought in turn 3 (its VP count in turn 2, when
    # it was drafted: a battle counts in its campaign turn), took 2 × 320 points and 2 × 93 mass
    # from Norge, 211 points and 63 mass (the Kashat-E) from Qatzrin.
    assert series["points_series"]["kongeriket-norge"] == [1348, 1348, 708]
    assert series["points_series"]["qatzrin"] == [2802, 2802, 2591]
    assert series["mass_series"]["kongeriket-norge"] == [389, 389, 203]
    assert series["mass_series"]["qatzrin"] == [823, 823, 760]
    page = nils.get(f"/campaigns/{SLUG}/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    titles = set(re.findall(r"<title>([^<]*)</title>", page))
    for title in (
        "Kongeriket Norge, turn 3: 14", "Qatzrin, turn 2: 11", "Qatzrin, turn 3: 12",
        "Kongeriket Norge, turn 3: 708", "Qatzrin, turn 3: 2591",
        "Kongeriket Norge, turn 3: 203", "Qatzrin, turn 3: 760",
    ):  # fmt: skip
        assert title in titles, title

    # -- What was told, to whom: three turns opened (every member, and the webhook), the
    # battle concluded (its sides' players, and the webhook). Nothing failed.
    told = Counter(
        (d.kind, d.channel, d.user.username if d.user else "webhook", d.status)
        for d in Delivery.objects.all()
    )
    assert told == Counter(
        {
            ("turn_opened", "email", "orla", "sent"): 3,
            ("turn_opened", "email", "nils", "sent"): 3,
            ("turn_opened", "email", "tamar", "sent"): 3,
            ("turn_opened", "webhook", "webhook", "sent"): 3,
            ("battle_concluded", "email", "nils", "sent"): 1,
            ("battle_concluded", "email", "tamar", "sent"): 1,
            ("battle_concluded", "webhook", "webhook", "sent"): 1,
        }
    )
    # In the campaign's language (French): nobody chose another.
    assert Counter((m.to[0], m.subject) for m in mail.outbox) == Counter(
        [
            (f"{who}@example.org", f"Sample campaign: Miranda\u202f: le tour {n} est ouvert")
            for n in (1, 2, 3)
            for who in ("orla", "nils", "tamar")
        ]
        + [(f"{who}@example.org", "Outer Belt, tour 2 est conclue") for who in ("nils", "tamar")]
    )
    concluded = [m for m in mail.outbox if "conclue" in m.subject]
    assert all(f"https://league.example/battles/{battle.pk}/" in m.body for m in concluded)
    assert [post["content"].split("\n")[0] for _path, post in receiver.posts] == [
        "**Sample campaign: Miranda\u202f: le tour 1 est ouvert**",
        "**Sample campaign: Miranda\u202f: le tour 2 est ouvert**",
        "**Sample campaign: Miranda\u202f: le tour 3 est ouvert**",
        "**Outer Belt, tour 2 est conclue**",
    ]
    assert {path for path, _post in receiver.posts} == {"/api/webhooks/42/secret-token"}
    assert receiver.posts[-1][1]["content"].endswith(f"https://league.example/battles/{battle.pk}/")

    # -- The campaign moves: export → import into an empty instance → export, same bytes.
    exported = org.get(f"{API}/export")
    assert exported.status_code == 200
    text = exported.content
    document = json.loads(text)
    assert [b["slug"] for b in document["battles"]] == [
        "colonisation-compromise", "skirmish-at-mieska", "outer-belt-tour-2",
    ]  # fmt: skip
    assert (
        len(document["turns"]),
        len(document["renown_awards"]),
        len(document["victory_awards"]),
    ) == (3, 7, 14)
    empty_instance()
    staff = User.objects.create_user("staff", password=PASSWORD, is_staff=True)
    mover = Client()
    mover.force_login(staff)
    imported = mover.post("/api/campaigns/import", text, content_type="application/json")
    assert imported.status_code == 201, imported.content
    assert sorted(imported.json()["users_created"]) == ["nils", "orla", "tamar"]
    again = mover.get(f"{API}/export")
    assert again.status_code == 200 and again.content == text
