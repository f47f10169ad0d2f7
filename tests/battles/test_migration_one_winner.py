"""The migration that stores the winner once and protects battle history carries existing
rows over (and back): entries' winner slugs become sides, a winner kept only on a side's
flag moves to its battle, a participant with both a ship and light units is split, a ship
fielded twice on one side is kept once."""

from __future__ import annotations

import pytest

from tests.migrations import migrate_latest, migrate_to

BEFORE = ("battles", "0010_fill_concluded_at")
AFTER = ("battles", "0011_one_winner_protected_history")


def _migrate(target: tuple[str, str]):
    """Migrate battles to ``target``, every other app to its latest; the models then."""
    return migrate_to(target)


def _old_rows(apps) -> dict:
    """Three concluded battles in the old form, their entries and participants."""
    get = apps.get_model
    Faction, Fleet = get("factions", "Faction"), get("factions", "Fleet")
    Battle, Side = get("battles", "Battle"), get("battles", "BattleSide")
    Participant, Entry = get("battles", "Participant"), get("battles", "RecordEntry")
    campaign = get("campaign", "Campaign").objects.create(name="League", slug="league")
    q = Faction.objects.create(name="Qatzrin", slug="qatzrin")
    n = Faction.objects.create(name="Norge", slug="norge")
    fleet = Fleet.objects.create(faction=q, name="5th", slug="q-5th")
    saar = get("factions", "ShipClass").objects.create(
        faction=q, name="Sa'ar", slug="saar", mass=16, hull_boxes=5
    )
    ship = get("factions", "Ship").objects.create(ship_class=saar, fleet=fleet, name="Hanit")
    group = get("factions", "LightUnitGroup").objects.create(
        name="Wing", kind="fighter", faction=q, fleet=fleet
    )
    rows: dict = {}
    for slug, winner, flags in (("flag-only", None, (True, False)), ("agreed", n, (False, True)),
                                ("two-flags", None, (True, True))):  # fmt: skip
        battle = Battle.objects.create(
            campaign=campaign, name=slug, slug=slug, status="concluded", winner=winner
        )
        sides = [
            Side.objects.create(battle=battle, faction=f, is_winner=flag, order=i)
            for i, (f, flag) in enumerate(zip((q, n), flags, strict=True))
        ]
        rows[slug] = (battle, sides)
    battle, (q_side, n_side) = rows["flag-only"]
    rows["both"] = Participant.objects.create(
        side=q_side, ship=ship, light_units=group, fate="damaged", hull_lost=2, craft_lost=3
    )
    rows["twice"] = Participant.objects.create(side=q_side, ship=ship, fate="destroyed")
    for slug in ("norge", "", "nope"):
        Entry.objects.create(battle=battle, side=q_side, winner=slug)
    get("battles", "HistoricalRecordEntry").objects.create(
        id=999, battle_id=battle.pk, side_id=q_side.pk, winner="qatzrin", results=[],
        outcome="", narrative="", status="submitted", submitted_at="2026-01-01T00:00Z",
        history_date="2026-01-01T00:00Z", history_type="+",
    )  # fmt: skip
    return rows


@pytest.mark.django_db(transaction=True)
def test_rows_are_carried_to_the_new_form_and_back():
    old = _migrate(BEFORE)
    rows = _old_rows(old)
    flag_only, (q_side, n_side) = rows["flag-only"]
    counts = {
        name: old.get_model("battles", name).objects.count()
        for name in ("Battle", "BattleSide", "RecordEntry", "HistoricalRecordEntry", "Participant")
    }
    assert counts["Participant"] == 2

    new = _migrate(AFTER)
    Battle, Entry = new.get_model("battles", "Battle"), new.get_model("battles", "RecordEntry")
    Participant = new.get_model("battles", "Participant")
    after = {name: new.get_model("battles", name).objects.count() for name in counts}
    # One participant split in two, one fielded twice dropped: the same count.
    assert after == counts
    winners = dict(Battle.objects.values_list("slug", "winner__slug"))
    assert winners == {"flag-only": "qatzrin", "agreed": "norge", "two-flags": None}
    assert list(Entry.objects.order_by("pk").values_list("winner_id", flat=True)) == [
        n_side.pk,
        None,
        None,
    ]
    history = new.get_model("battles", "HistoricalRecordEntry").objects.get(id=999)
    assert history.winner_id == q_side.pk
    units = list(
        Participant.objects.order_by("pk").values_list(
            "pk", "ship_id", "light_units_id", "fate", "hull_lost", "craft_lost"
        )
    )
    both = rows["both"]
    assert units == [
        (both.pk, both.ship_id, None, "damaged", 2, 0),
        (units[1][0], None, both.light_units_id, "damaged", 0, 3),
    ]
    assert units[1][0] > rows["twice"].pk

    back = _migrate(BEFORE)
    Side = back.get_model("battles", "BattleSide")
    flags = set(Side.objects.filter(is_winner=True).values_list("battle__slug", "faction__slug"))
    assert flags == {("flag-only", "qatzrin"), ("agreed", "norge")}
    slugs = back.get_model("battles", "RecordEntry").objects.order_by("pk")
    assert list(slugs.values_list("winner", flat=True)) == ["norge", "", ""]
    migrate_latest()
