"""``campaign.core.bulk_rows``: the joined UPDATE writes what ``bulk_update`` writes, in a
number of statements set by the database's parameter limit, with history rows and the fleet
data version marked (run on SQLite, and on PostgreSQL with DATABASE_URL pointing there)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.models import F

from campaign.core.bulk_rows import rows_update, rows_update_with_history
from factions.models import Faction, Fleet, Ship, ShipClass, Squadron
from factions.versioning import read_version

pytestmark = pytest.mark.django_db
FIELDS = ["name", "status", "hull_lost", "armour_lost", "systems_lost", "squadron", "notes"]


def _ships(n: int, tag: str = "a") -> list[Ship]:
    faction = Faction.objects.create(name=f"Rows {tag}", slug=f"rows-{tag}")
    cls = ShipClass.objects.create(
        faction=faction, name="Hulk", slug="hulk", mass=30, hull_boxes=10
    )
    fleet = Fleet.objects.create(faction=faction, name="Fleet", slug=f"rows-fleet-{tag}")
    return Ship.objects.bulk_create(
        [
            Ship(name=f"S{i}", ship_class=cls, fleet=fleet, hull_lost=1, systems_lost=["x"])
            for i in range(n)
        ]
    )


def _change(ships: list[Ship], squadron: Squadron | None) -> None:
    """Values of every kind, different on each row: text with quotes and accents, JSON
    lists and objects, a foreign key set and cleared, an empty string."""
    for i, s in enumerate(ships):
        s.name = f"Ship's «{i}» %s"
        s.status = Ship.Status.DAMAGED if i % 2 else Ship.Status.ACTIVE
        s.hull_lost, s.armour_lost = i, 2 * i
        s.systems_lost = [] if i % 3 == 0 else [f"beam-{i}", {"k": i}]
        s.squadron = squadron if i % 2 else None
        s.notes = ""


def _rows(ships: list[Ship]) -> list[tuple]:
    return list(
        Ship.objects.filter(pk__in=[s.pk for s in ships])
        .order_by("pk")
        .values_list(*[f if f != "squadron" else "squadron_id" for f in FIELDS])
    )


def test_writes_what_bulk_update_writes():
    ours, django = _ships(7, "a"), _ships(7, "b")
    squadron = Squadron.objects.create(fleet=ours[0].fleet, name="First")
    untouched = _ships(2, "c")
    _change(ours, squadron)
    _change(django, squadron)
    assert rows_update(Ship.objects, ours, FIELDS) == 7
    Ship.objects.bulk_update(django, FIELDS)
    assert _rows(ours) == _rows(django)
    assert _rows(ours)[1] == (
        "Ship's «1» %s",
        "damaged",
        1,
        2,
        ["beam-1", {"k": 1}],
        squadron.pk,
        "",
    )
    assert _rows(untouched) == [("S0", "active", 1, 0, ["x"], None, "")] + [
        ("S1", "active", 1, 0, ["x"], None, "")
    ]


def test_a_ship_listed_twice_is_written_once_from_its_first_listing():
    (ship,) = _ships(1)
    twin = Ship.objects.get(pk=ship.pk)
    ship.hull_lost, twin.hull_lost = 5, 6
    assert rows_update(Ship.objects, [ship, twin], ["hull_lost"]) == 1
    ship.refresh_from_db()
    assert ship.hull_lost == 5


def test_nothing_to_write_runs_no_query(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert rows_update(Ship.objects, [], ["hull_lost"]) == 0


@pytest.mark.parametrize("n", [3, 300])
def test_one_statement_whatever_the_rows_within_the_limit(n, django_assert_num_queries):
    ships = _ships(n)
    for s in ships:
        s.hull_lost = 4
    with django_assert_num_queries(1):
        rows_update(Ship.objects, ships, ["hull_lost", "status"])


def test_statements_split_at_the_databases_parameter_limit(monkeypatch, django_assert_num_queries):
    ships = _ships(10)
    for i, s in enumerate(ships):
        s.hull_lost = i
    # 12 parameters a statement: 4 rows of (id, hull_lost, status) each -> 3 statements;
    # PostgreSQL's statement takes one array a column, 3 parameters whatever the rows.
    monkeypatch.setattr(connection.features, "max_query_params", 12)
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 3):
        assert rows_update(Ship.objects, ships, ["hull_lost", "status"]) == 10
    assert sorted(Ship.objects.values_list("hull_lost", flat=True)) == list(range(10))


def test_an_expression_is_left_to_bulk_update():
    ships = _ships(3)
    for s in ships:
        s.hull_lost = F("hull_lost") + 2
    assert rows_update(Ship.objects, ships, ["hull_lost"]) == 3
    assert list(Ship.objects.values_list("hull_lost", flat=True)) == [3, 3, 3]


def test_refusals_as_bulk_update():
    (ship,) = _ships(1)
    with pytest.raises(ValueError, match="Field names"):
        rows_update(Ship.objects, [ship], [])
    with pytest.raises(ValueError, match="primary key"):
        rows_update(Ship.objects, [ship], ["id"])
    with pytest.raises(ValueError, match="primary key set"):
        rows_update(Ship.objects, [Ship(name="new")], ["name"])


def test_history_row_for_every_row_with_its_reason_and_date():
    ships = _ships(4)
    when = datetime(2030, 1, 2, 3, 4, tzinfo=UTC)
    for i, s in enumerate(ships):
        s.hull_lost = 9
        if i:
            s._change_reason = f"reason {i}"
    rows_update_with_history(ships, Ship, ["hull_lost"], default_date=when)
    rows = list(
        Ship.history.filter(id__in=[s.pk for s in ships], history_type="~")
        .order_by("id")
        .values_list("id", "hull_lost", "history_change_reason", "history_date")
    )
    assert rows == [(s.pk, 9, f"reason {i}" if i else None, when) for i, s in enumerate(ships)]


def test_writing_ships_marks_the_fleet_data_changed():
    ships = _ships(2)
    connection.run_on_commit.clear()  # the set-up's own writes: nothing pending now
    for s in ships:
        s.hull_lost = 3
    rows_update(Ship.objects, ships, ["hull_lost"])
    assert read_version() is None  # this transaction wrote fleet data it has not committed
    # One new version of each family when it commits (fleets; campaign: every write).
    assert len(connection.run_on_commit) == 2
