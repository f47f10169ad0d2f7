"""The migration that turns the text names of admirals, squadron commanders and captains
into ``Commander`` records (factions 0005): one record per name and faction, in one place
(the most senior), and back."""

from __future__ import annotations

import pytest

from tests.migrations import migrate_latest, migrate_to

BEFORE = ("factions", "0004_rederive_ship_class_figures")
AFTER = ("factions", "0005_commanders")


@pytest.mark.django_db(transaction=True)
def test_text_names_become_one_record_per_person_in_one_place_and_back():
    try:
        old = migrate_to(BEFORE)
        Faction = old.get_model("factions", "Faction")
        Fleet = old.get_model("factions", "Fleet")
        Squadron = old.get_model("factions", "Squadron")
        Ship = old.get_model("factions", "Ship")
        ShipClass = old.get_model("factions", "ShipClass")
        q = Faction.objects.create(name="Qatzrin", slug="qatzrin")
        p = Faction.objects.create(name="Phalon", slug="phalon")
        saar = ShipClass.objects.create(faction=q, name="Sa'ar", slug="saar", mass=20, hull_boxes=6)
        tsaara = ShipClass.objects.create(
            faction=p, name="Tsaara", slug="tsaara", mass=20, hull_boxes=6
        )
        fifth = Fleet.objects.create(faction=q, name="5th", slug="5th", admiral="Yoje Nesmer")
        sixth = Fleet.objects.create(faction=q, name="6th", slug="6th", admiral="")
        reprisal = Fleet.objects.create(faction=p, name="68th", slug="68th", admiral="Yoje Nesmer")
        darmila = Squadron.objects.create(fleet=fifth, name="Darmila", commander="Yoje Nesmer")
        saryat = Squadron.objects.create(fleet=fifth, name="Saryat", commander=" Esther Seddia ")
        lydia = Ship.objects.create(
            ship_class=saar, fleet=fifth, name="Lydia", captain="Benjamin Lansky"
        )
        nimrod = Ship.objects.create(
            ship_class=saar, fleet=sixth, name="Nimrod", captain="Esther Seddia"
        )
        Ship.objects.create(ship_class=tsaara, fleet=reprisal, name="T", captain="")

        new = migrate_to(AFTER)
        Commander = new.get_model("factions", "Commander")
        rows = sorted(
            Commander.objects.values_list(
                "faction__slug", "name", "rank", "status", "fleet_id", "squadron_id", "ship_id"
            )
        )
        assert rows == [
            # Same name, two factions: two people. Admiral and squadron commander: the fleet.
            ("phalon", "Yoje Nesmer", "admiral", "active", reprisal.pk, None, None),
            ("qatzrin", "Benjamin Lansky", "captain", "active", None, None, lydia.pk),
            # Commander of Saryat and captain of Nimrod: the squadron, the more senior.
            ("qatzrin", "Esther Seddia", "commander", "active", None, saryat.pk, None),
            ("qatzrin", "Yoje Nesmer", "admiral", "active", fifth.pk, None, None),
        ]
        NewFleet = new.get_model("factions", "Fleet")
        assert "admiral" not in [f.name for f in NewFleet._meta.concrete_fields]

        back = migrate_to(BEFORE)
        OldFleet = back.get_model("factions", "Fleet")
        OldSquadron = back.get_model("factions", "Squadron")
        OldShip = back.get_model("factions", "Ship")
        assert dict(OldFleet.objects.values_list("slug", "admiral")) == {
            "5th": "Yoje Nesmer", "6th": "", "68th": "Yoje Nesmer",
        }  # fmt: skip
        assert dict(OldSquadron.objects.values_list("pk", "commander")) == {
            darmila.pk: "", saryat.pk: "Esther Seddia",
        }  # fmt: skip
        assert dict(OldShip.objects.filter(captain__gt="").values_list("pk", "captain")) == {
            lydia.pk: "Benjamin Lansky",
        }
        assert nimrod.pk not in dict(OldShip.objects.filter(captain__gt="").values_list("pk", "pk"))
    finally:
        migrate_latest()
