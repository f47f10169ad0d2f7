"""Fixtures of the league-membership tests."""

import pytest
from django.utils import translation


@pytest.fixture
def english():
    """Run the test in English (the site's default is French)."""
    with translation.override("en"):
        yield


def client_for(cast, rival, who, **headers):
    """A test client logged in as ``who``: a cast member's name, ``other_org`` (the rival
    campaign's organiser), ``staff``, or None (anonymous)."""
    from django.test import Client

    client = Client(**headers)
    if who:
        users = {"other_org": rival.organiser, "staff": rival.staff} if rival else {}
        client.force_login(users.get(who) or getattr(cast, who))
    return client
