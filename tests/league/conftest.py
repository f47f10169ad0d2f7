"""Fixtures of the league-membership tests."""

import pytest
from django.utils import translation


@pytest.fixture
def english():
    """Run the test in English (the site's default is French)."""
    with translation.override("en"):
        yield
