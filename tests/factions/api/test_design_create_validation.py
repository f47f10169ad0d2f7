"""``POST /api/designs`` answers 422 naming the field for what is not one
valid design, in one transaction: nothing is written on failure."""

from __future__ import annotations

import copy
import json

import pytest
from django.test import Client

from factions.models import ShipClass
from tests.factions.factories import valid_design


def post(cast, body):
    client = Client()
    client.force_login(cast.organiser)
    return client.post("/api/designs", json.dumps(body), content_type="application/json")


def without_format():
    doc = valid_design()
    del doc["format"]
    return doc


def punctuation_name():
    return {**valid_design(), "name": "!!! ???"}


def empty_catalogue():
    return {"faction": "qatzrin", "format": "admiralty-design/1", "classes": []}


def two_design_catalogue():
    first = valid_design("Hanit")
    second = copy.deepcopy(first) | {"name": "Eilat"}
    return {"faction": "qatzrin", "format": "admiralty-design/1", "classes": [first, second]}


def nul_in_name():
    return {**valid_design(), "name": "Ha\x00nit"}


def surrogate_in_rationale():
    return {**valid_design(), "rationale": "bad \ud800 text"}


def overlong_type_word():
    return {**valid_design(), "type_word": "f" * 500}


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (without_format, "format"),
        (punctuation_name, "name"),
        (empty_catalogue, "classes"),
        (two_design_catalogue, "classes"),
        (nul_in_name, "name"),
        (surrogate_in_rationale, "rationale"),
        (overlong_type_word, "type_word"),
    ],
)
def test_a_bad_design_is_a_422_naming_the_field_and_writes_nothing(cast, make, field):
    response = post(cast, make())
    assert response.status_code == 422, response.content
    fields = [e["field"] for e in response.json()["errors"]]
    assert any(field in f for f in fields), fields
    assert not ShipClass.objects.exists()


def test_a_valid_design_is_still_created(cast):
    response = post(cast, valid_design())
    assert response.status_code == 201, response.content
    assert ShipClass.objects.get().name == "Hanit"
