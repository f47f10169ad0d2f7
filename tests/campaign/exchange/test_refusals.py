"""A document that cannot be imported is refused naming its JSON path; nothing is written."""

from __future__ import annotations

import copy
import json

import pytest
from django.apps import apps

from campaign.core.actors import SYSTEM
from campaign.core.refusals import Refused
from campaign.exchange.document import DocumentError
from campaign.exchange.export import campaign_export
from campaign.exchange.load import campaign_import
from tests.campaign.exchange.conftest import empty_instance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def document(turn_closed):
    """The played sample's document, the instance then emptied of it."""
    exported = json.loads(json.dumps(campaign_export(campaign=turn_closed.campaign, user=SYSTEM)))
    empty_instance()
    return exported


def row_counts() -> dict[str, int]:
    labels = ("campaign", "turns", "factions", "battles", "auth")
    return {
        m._meta.label: m._base_manager.count()
        for m in apps.get_models()
        if m._meta.app_label in labels
    }


def refused(document) -> Refused:
    before = row_counts()
    with pytest.raises(Refused) as caught:
        campaign_import(document=document, user=SYSTEM)
    assert row_counts() == before  # nothing written
    return caught.value


def test_another_version_is_refused_naming_version(document):
    document["version"] = 2
    exc = refused(document)
    assert isinstance(exc, DocumentError) and exc.status == 422
    assert exc.errors == [
        ("version", "version 2 is not supported: this instance reads version 1"),
    ]


def test_another_schema_is_refused_naming_schema(document):
    exc = refused({**document, "schema": "something-else"})
    assert [field for field, _ in exc.errors] == ["schema"]


def test_a_dangling_reference_names_its_path(document):
    document["ships"][3]["fleet"] = "no-such-fleet"
    document["participants"][2]["ship"] = 999
    exc = refused(document)
    assert exc.status == 422
    assert exc.errors == [
        ("ships[3].fleet", "no row 'no-such-fleet' in fleets"),
        ("participants[2].ship", "no row 999 in ships (it has rows 1 to 42)"),
    ]
    assert str(exc) == "dangling reference: ships[3].fleet: no row 'no-such-fleet' in fleets"


def test_a_dangling_engine_id_in_the_log_names_its_path(document):
    orders = next(i for i, e in enumerate(document["events"]) if e["kind"] == "orders")
    document["events"][orders]["data"]["ship"] = "ship-99"
    exc = refused(document)
    assert exc.errors == [
        (f"events[{orders}].data.ship", "ship-99 names no row of the document"),
    ]


def test_a_bad_field_names_its_path(document):
    document["ships"][0]["hull_lost"] = -1
    document["factions"][1]["slug"] = 7
    del document["battles"][0]["name"]
    document["fleets"][0]["colour"] = "red"
    exc = refused(document)
    assert sorted(field for field, _ in exc.errors) == [
        "battles[0].name",
        "factions[1].slug",
        "fleets[0].colour",
        "ships[0].hull_lost",
    ]


def test_a_key_named_twice_is_refused(document):
    document["battles"][1]["slug"] = document["battles"][0]["slug"]
    exc = refused(document)
    assert exc.errors[0] == ("battles[1].slug", "'colonisation-compromise' is named twice")
    # The rows naming the battle whose key was lost are named too.
    assert ("battle_sides[2].battle", "no row 'skirmish-at-mieska' in battles") in exc.errors


def test_a_campaign_or_faction_already_here_is_refused_409(document):
    campaign_import(document=copy.deepcopy(document), user=SYSTEM)
    exc = refused(document)
    assert exc.status == 409
    fields = [field for field, _ in exc.errors]
    assert fields[0] == "campaign.slug"
    assert "factions[0].slug" in fields and "factions[0].name" in fields
    assert "fleets[0].slug" in fields
    assert exc.errors[0][1] == "a campaign 'sample' exists already"


def test_a_faction_of_another_campaign_is_refused(document):
    other = copy.deepcopy(document)
    other["campaign"]["slug"] = "another"
    campaign_import(document=other, user=SYSTEM)
    document["campaign"]["slug"] = "a-third"
    exc = refused(document)
    assert {field for field, _ in exc.errors} >= {"factions[0].slug", "factions[3].name"}


def test_a_failure_half_way_leaves_the_database_unchanged(document):
    # Two participants for one ship on one side: the database refuses the second when
    # participants are written, after factions, fleets, ships and battles were.
    document["participants"][1]["ship"] = document["participants"][0]["ship"]
    document["participants"][1]["side"] = document["participants"][0]["side"]
    exc = refused(document)
    assert exc.status == 422
    assert str(exc).startswith("the database refused the document")


def test_not_an_object_is_refused(document):
    exc = refused([document])
    assert exc.status == 422


def test_slugs_and_time_zones_are_checked_as_the_forms_do(document):
    document["factions"][0]["slug"] = "a/b"
    document["campaign"]["time_zone"] = "Mars/Olympus"
    exc = refused(document)
    assert [field for field, _ in exc.errors] == ["campaign.time_zone", "factions[0].slug"]


def test_text_no_database_can_store_is_refused_by_path(document):
    document["events"][3]["data"]["note"] = "a\x00b"
    document["ships"][2]["captain"] = "\ud800"
    exc = refused(document)
    assert sorted(field for field, _ in exc.errors) == ["events[3].data", "ships[2].captain"]
    assert dict(exc.errors)["events[3].data"] == (
        "Value error, note: contains a NUL character (\\x00)"
    )
