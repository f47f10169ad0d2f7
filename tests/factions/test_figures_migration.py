"""The data migration that reads ship classes' figures again from their design documents."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from factions.models import Faction, ShipClass
from tests.migrations import migrate_latest
from tests.world import catalogue_design

BEFORE = ("factions", "0003_data_version")
AFTER = ("factions", "0004_rederive_ship_class_figures")
FIGURES = ("mass", "hull_boxes", "armour", "thrust", "points")


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])


def _figures():
    return {
        sc.slug: tuple(getattr(sc, f) for f in FIGURES) for sc in ShipClass.objects.order_by("pk")
    }


@pytest.mark.django_db(transaction=True)
def test_a_class_whose_columns_disagree_with_its_design_is_fixed_and_only_it():
    _migrate(BEFORE)
    try:
        faction = Faction.objects.create(name="Qatzrin", slug="qatzrin")
        saar, kineret = catalogue_design("Sa'ar"), catalogue_design("Kineret")
        unpriced = {k: v for k, v in kineret.items() if k != "points"}

        def make(slug, design, **figures):
            ShipClass.objects.create(
                faction=faction, name=slug, slug=slug, design=design, **figures
            )

        def of(d, **over):
            armour = sum(d["armour"]["layers"])
            out = {"mass": d["mass"], "hull_boxes": d["hull"]["boxes"], "armour": armour}
            return out | {"thrust": d["thrust"], "points": d.get("points")} | over

        make("agrees", saar, **of(saar))
        make("disagrees", kineret, mass=1, hull_boxes=2, armour=0, thrust=9, points=7)
        make("no-design", {}, mass=20, hull_boxes=6, armour=0, thrust=6, points=None)
        make("unpriced", unpriced, **of(unpriced, hull_boxes=1, points=250))
        before = _figures()

        _migrate(AFTER)

        after = _figures()
        assert len(after) == len(before) == 4
        changed = {slug for slug in after if after[slug] != before[slug]}
        assert changed == {"disagrees", "unpriced"}
        assert after["disagrees"] == tuple(of(kineret).values())
        assert after["agrees"] == before["agrees"]
        assert after["no-design"] == (20, 6, 0, 6, None)
        # A design stating no points leaves the column's price alone.
        assert after["unpriced"] == tuple(of(unpriced, points=250).values())
    finally:
        migrate_latest()
