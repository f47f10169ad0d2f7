"""Every page that acts (all but the public reading pages below) sends an anonymous
visitor to the login page before looking anything up: a POST after the session ended
must not answer 404 "No Battle matches the given query" to a new user."""

from __future__ import annotations

import re

import pytest
from django.urls import URLResolver, get_resolver

# Pages anyone may read (or the login machinery itself); everything else needs a login.
PUBLIC = {
    "home",
    "set_language",
    "login",
    "logout",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
    "invitation",  # the invitation page itself asks to log in or sign up
    "campaign-detail",
    "campaign-rules",
    "campaign-standings",  # victory points, tonnage, charts (battles/web/scoring.py)
    "faction-detail",
    "fleet-detail",
    "ship-detail",
    "shipclass-detail",
    "commander-detail",  # a public fleet's commanders (hidden ones 404, factions/access.py)
    "battle-detail",
    "battle-turns",  # the board of a public battle
    "battle-replay",
    "rules-index",
    "rules-sf-tracker",
    "rules-sf-boarding",
    "rules-swsb-attack",
    "rules-epic",
    "media-file",
    "battle-report-pdf-in",  # a battle's PDF in another language (battles/web/media.py)
    # Downloads of what the public pages show, scoped like them (hidden fleets left out).
    "campaign-fleets-csv",
    "campaign-ships-csv",
    "standings-csv",
    "fleet-ships-csv",
    "fleet-roster-pdf",
}
# Values for the URL's parameters naming objects that do not exist: the login check
# must come before the lookup.
FILLERS = {"int": "999999", "slug": "no-such-campaign", "str": "accept", "path": "x"}


def _routes(resolver=None, prefix: str = ""):
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern.name


ACTION_URLS = sorted(
    "/" + re.sub(r"<(\w+):\w+>", lambda m: FILLERS[m.group(1)], route)
    for route, name in _routes()
    if not route.startswith(("api/", "admin/")) and name not in PUBLIC
)


def test_the_list_covers_the_turn_order_pages():
    assert "/battles/999999/turns/orders/" in ACTION_URLS
    assert len(ACTION_URLS) >= 30


@pytest.mark.django_db
@pytest.mark.parametrize("url", ACTION_URLS)
def test_an_anonymous_post_or_get_is_sent_to_the_login_page(client, url):
    response = client.post(url, {"anything": "1"})
    assert response.status_code == 302, response.content[:200]
    assert response["Location"] == f"/login/?next={url}"
    response = client.get(url)
    # a POST-only action answers GET with 405 whoever asks
    assert response.status_code in (302, 405)
    if response.status_code == 302:
        assert response["Location"] == f"/login/?next={url}"
