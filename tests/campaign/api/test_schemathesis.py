"""Schemathesis against the live OpenAPI schema (``/api/openapi.json``
as the app serves it), as an organiser (personal API token) and anonymously, for a
bounded number of cases per operation (``CASES``: fewer outside CI): 0 server errors.
The same tests run on PostgreSQL in the integration pass
(tests/integration/test_schemathesis_pg.py).
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, settings

from campaign.league.api_auth import api_token_create
from campaign.wsgi import application

# Cases per operation and user. In CI (CI=true, as .ci/run sets it): 12, enough to reach
# every body and parameter shape the schema allows (and the ones it refuses), about 90 s
# on two cores. Elsewhere (`make test` on a desk) 4: the explicit examples and the first
# generated shapes of every operation in about a third of that; CI still runs all 12.
CASES = 12 if os.environ.get("CI") == "true" else 4

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)

SETTINGS = settings(
    max_examples=CASES,
    deadline=None,
    derandomize=True,  # the same cases every run: a failure is reproducible
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(autouse=True)
def _keep_the_test_transaction():
    """Calls go straight to the WSGI app, which closes "old" connections at each request's
    start and end — on PostgreSQL, the test's own (Django's test client unhooks it too)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def organiser_token(world) -> str:
    """A bearer token of the organiser of the page tests' league (data to hit)."""
    _row, token = api_token_create(user=world.cast.organiser, name="schemathesis")
    return token


def _check(case, response) -> None:
    assert response.status_code < 500, (
        f"{response.status_code} for {case.as_curl_command()}\n{response.text[:2000]}"
    )


@schema.parametrize()
@SETTINGS
def test_no_server_error_for_the_public(case, world):
    _check(case, case.call())


@schema.parametrize()
@SETTINGS
def test_no_server_error_for_an_organiser(case, organiser_token):
    _check(case, case.call(headers={"Authorization": f"Bearer {organiser_token}"}))
