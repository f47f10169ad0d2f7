"""The rules helpers' page reads as text and links: no seed file names, no API paths."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_rules_page_shows_names_and_links_not_files_and_paths(client):
    page = client.get("/rules/").content.decode()
    body = page.split("<main", 1)[1].split("</main>", 1)[0]
    assert ".txt" not in body and "000_" not in body
    assert "/api/rules" not in body and "<code>" not in body
    assert '<a href="/rules/starfinder/boarding/">Calculateur d&#x27;abordage</a>' in body
    assert '(<a href="/api/docs">aussi dans l’API</a>)' in body
    assert 'Probabilités des armes <span class="meta">(<a href="/api/docs">dans l’API</a>' in body
