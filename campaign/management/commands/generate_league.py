"""``python manage.py generate_league --ships 1000 --battles 10000 [--seed 0]``: a large,
deterministic league for benchmarks and load tests of speed.

Creates the campaign ``generated-<seed>`` with four factions, their ship classes, fleets
(one in eight hidden), ``--ships`` ships and ``--battles`` concluded battles recorded from
the table, each with two sides of 3–8 ships, fates and losses, a few log lines per turn and
a Markdown narrative of about 1 500 characters (a table and a footnote included); one
report in ten is left as an unpublished draft. Everything comes from ``random.Random(seed)``:
the same arguments give the same league. Refuses to run when that campaign exists.
"""

from __future__ import annotations

import random
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from battles.models import Battle, BattleSide, Event, Participant
from campaign.league.models import Campaign
from factions.models import Commander, Faction, Fleet, Ship, ShipClass

FACTIONS = ("Aurora Compact", "Vesper Union", "Karst Dominion", "Ilex Free Worlds")
CLASSES = (("Lance", "frégate", 14, 4, 60), ("Halberd", "croiseur", 48, 14, 180),
           ("Bastion", "cuirassé", 96, 30, 390))  # fmt: skip
WORDS = [
    "the",
    "squadron",
    "held",
    "its",
    "course",
    "through",
    "the",
    "asteroid",
    "belt",
    "while",
    "the",
    "escorts",
    "screened",
    "the",
    "carriers",
    "fire",
    "opened",
    "at",
    "long",
    "range",
    "and",
    "the",
    "enemy",
    "pressed",
    "on",
    "towards",
    "the",
    "colony",
    "pulsers",
    "and",
    "beams",
    "crossed",
    "the",
    "void",
    "until",
    "the",
    "last",
    "ship",
    "withdrew",
    "at",
    "the",
    "edge",
    "of",
    "the",
    "table",
]
FATES = ("unharmed", "damaged", "damaged", "destroyed", "fled")


def _narrative(rng: random.Random, name: str) -> str:
    paragraphs = []
    for _ in range(5):
        words = [rng.choice(WORDS) for _ in range(45)]
        paragraphs.append(" ".join(words).capitalize() + ".")
    paragraphs.insert(2, "| Turn | Event |\n|---|---|\n| 1 | contact |\n| 3 | losses[^1] |")
    paragraphs.append(f"[^1]: As recorded at {name}.")
    return "## " + name + "\n\n" + "\n\n".join(paragraphs)


class Command(BaseCommand):
    help = "Generate a large deterministic league (benchmarks, load tests)."

    def add_arguments(self, parser):
        parser.add_argument("--ships", type=int, default=1000)
        parser.add_argument("--battles", type=int, default=10000)
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args, ships: int, battles: int, seed: int, **options):
        if ships < 8 or battles < 0:
            raise CommandError("--ships must be at least 8 and --battles at least 0")
        slug = f"generated-{seed}"
        if Campaign.objects.filter(slug=slug).exists():
            raise CommandError(f"campaign {slug!r} exists: drop it or use another --seed")
        started = time.perf_counter()
        rng = random.Random(seed)
        with transaction.atomic():
            league = self._league(rng, slug, ships, battles)
        self.stdout.write(
            f"Generated {league.name}: {ships} ships, {battles} battles "
            f"in {time.perf_counter() - started:.1f} s (seed {seed})."
        )

    def _league(self, rng, slug, n_ships, n_battles) -> Campaign:
        league = Campaign.objects.create(name=f"Generated league {slug}", slug=slug)
        factions = []
        for name in FACTIONS:
            fslug = f"{slug}-{name.lower().replace(' ', '-')}"
            faction = Faction.objects.create(name=f"{name} ({slug})", slug=fslug)
            factions.append(faction)
        league.factions.add(*factions)
        classes = {
            f.pk: [
                ShipClass.objects.create(
                    faction=f, name=n, slug=n.lower(), type_word=t, mass=m, hull_boxes=h,
                    points=p, provisional=False,
                )
                for n, t, m, h, p in CLASSES
            ]
            for f in factions
        }  # fmt: skip
        fleets = Fleet.objects.bulk_create(
            Fleet(
                faction=factions[i % len(factions)],
                name=f"Fleet {i + 1}",
                slug=f"{slug}-fleet-{i + 1}",
                hidden=(i % 8 == 3),
            )
            for i in range(max(4, n_ships // 25))
        )
        Commander.objects.bulk_create(
            Commander(faction=fleet.faction, name=f"Admiral {i + 1}", rank="admiral", fleet=fleet)
            for i, fleet in enumerate(fleets)
        )
        ship_rows = []
        for i in range(n_ships):
            fleet = fleets[i % len(fleets)]
            ship_class = rng.choice(classes[fleet.faction_id])
            lost = rng.randrange(ship_class.hull_boxes // 2 + 1) if rng.random() < 0.3 else 0
            ship = Ship(
                ship_class=ship_class,
                fleet=fleet,
                name=f"{ship_class.name} {i + 1}",
                hull_lost=lost,
            )
            ship.settle_status()
            ship_rows.append(ship)
        all_ships = Ship.objects.bulk_create(ship_rows)
        by_faction: dict[int, list[Ship]] = {f.pk: [] for f in factions}
        for ship in all_ships:
            by_faction[ship.fleet.faction_id].append(ship)
        now = timezone.now()
        battle_rows = []
        for i in range(n_battles):
            a, b = rng.sample(factions, 2)
            name = f"Clash {i + 1}"
            battle_rows.append(
                Battle(
                    campaign=league,
                    name=name,
                    slug=f"clash-{i + 1}",
                    location=f"System {rng.randrange(1, 200)}",
                    campaign_turn=1 + i // 50,
                    game_turns=rng.randrange(3, 8),
                    outcome=f"{a.name} hold the field.",
                    winner=a,
                    narrative=_narrative(rng, name),
                    analysis="Fire discipline decided it.",
                    report_state="draft" if i % 10 == 9 else "published",
                    report_published_at=None if i % 10 == 9 else now,
                )
            )
            battle_rows[-1].mark_concluded(now)
            battle_rows[-1]._sides = (a, b)
        created = Battle.objects.bulk_create(battle_rows)
        sides, pending = [], []
        for battle, row in zip(created, battle_rows, strict=True):
            for order, faction in enumerate(row._sides):
                side = BattleSide(
                    battle=battle, faction=faction, order=order,
                    primary_objective="Hold the system.",
                )  # fmt: skip
                sides.append(side)
                pending.append(rng.sample(by_faction[faction.pk], rng.randrange(3, 9)))
        BattleSide.objects.bulk_create(sides)
        participants = []
        for side, ships in zip(sides, pending, strict=True):
            side.fleet_id = ships[0].fleet_id
            for ship in ships:
                fate = rng.choice(FATES)
                participants.append(
                    Participant(
                        side=side, ship=ship, fate=fate,
                        hull_lost=ship.ship_class.hull_boxes if fate == "destroyed"
                        else rng.randrange(4) if fate == "damaged" else 0,
                    )
                )  # fmt: skip
        BattleSide.objects.bulk_update(sides, ["fleet"])
        Participant.objects.bulk_create(participants, batch_size=2000)
        events = []
        for battle in created:
            for turn in range(1, battle.game_turns + 1):
                events.append(
                    Event(battle=battle, sequence=turn, game_turn=turn, kind="note",
                          summary=f"Turn {turn}: {' '.join(rng.choice(WORDS) for _ in range(8))}")
                )  # fmt: skip
        Event.objects.bulk_create(events, batch_size=5000)
        return league
