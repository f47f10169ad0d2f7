"""The OpenAPI schema is built once per process, not on every request."""

from __future__ import annotations

import ninja.main
from django.test import Client

from campaign.api import api


def test_the_schema_is_built_once(db, monkeypatch):
    calls = []
    real = ninja.main.get_schema

    def counting(**kwargs):
        calls.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(ninja.main, "get_schema", counting)
    monkeypatch.setattr(api, "_schema_cache", {}, raising=False)
    client = Client()
    first = client.get("/api/openapi.json")
    second = client.get("/api/openapi.json")
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json() and "/api/fleets/{slug}" in first.json()["paths"]
    assert len(calls) == 1


def test_the_fleet_detail_schema_still_describes_each_ship(db):
    schema = Client().get("/api/openapi.json").json()
    ship = schema["components"]["schemas"]["FleetShipOut"]
    assert set(ship["required"]) >= {"id", "ship_class", "hull_left", "systems_lost"}
