"""Shared test cast and markers.

- ``integration`` tests run only with ADMIRALTY_INTEGRATION=1 (``make test-integration``,
  which CI runs through ``make test`` when CI=true): real PostgreSQL, broker and worker.
- ``e2e`` tests need Chromium (installed by .ci/run); they skip when it is absent.
"""

import os
from pathlib import Path

import pytest

INTEGRATION = os.environ.get("ADMIRALTY_INTEGRATION") == "1"

#: The repository's root (``tests/`` is one level below it).
ROOT = Path(__file__).resolve().parents[1]


def pytest_collection_modifyitems(config, items):
    skip_integration = pytest.mark.skip(reason="integration: set ADMIRALTY_INTEGRATION=1")
    skip_unit = pytest.mark.skip(reason="unit tests run in the main `make test` pass")
    for item in items:
        is_integration = "integration" in item.keywords
        if is_integration and not INTEGRATION:
            item.add_marker(skip_integration)
        elif INTEGRATION and not is_integration:
            item.add_marker(skip_unit)


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """Hash test passwords with MD5: the production hasher is slow by design."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts in the default language (French): a test must not pass only
    because an earlier one left another language active."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _site_root(settings, tmp_path_factory):
    """The site a published report refreshes lives in a test folder, never ./site."""
    settings.SITE_ROOT = tmp_path_factory.mktemp("site-root") / "site"


@pytest.fixture
def cast(db, django_user_model):
    """An organiser, two players of rival factions, a chronicler and an outsider."""
    from campaign.league.models import Campaign, Membership
    from factions.models import Faction

    campaign = Campaign.objects.create(name="Test league", slug="test-league")
    norge = Faction.objects.create(name="Kongeriket Norge", slug="kongeriket-norge")
    qatzrin = Faction.objects.create(name="Qatzrin", slug="qatzrin")
    campaign.factions.add(norge, qatzrin)
    users = {}
    for username in ("organiser", "norge_player", "qatzrin_player", "chronicler", "outsider"):
        users[username] = django_user_model.objects.create_user(username, password="pw-12345!")
    Membership.objects.create(
        campaign=campaign, user=users["organiser"], role=Membership.Role.ORGANISER
    )
    Membership.objects.create(
        campaign=campaign, user=users["norge_player"], role=Membership.Role.PLAYER, faction=norge
    )
    Membership.objects.create(
        campaign=campaign,
        user=users["qatzrin_player"],
        role=Membership.Role.PLAYER,
        faction=qatzrin,
    )
    Membership.objects.create(
        campaign=campaign, user=users["chronicler"], role=Membership.Role.CHRONICLER
    )

    class Cast:
        pass

    c = Cast()
    c.campaign, c.norge, c.qatzrin = campaign, norge, qatzrin
    for k, v in users.items():
        setattr(c, k, v)
    return c


@pytest.fixture
def world(cast):
    """The page tests' small league on top of the cast (``tests.world.build_world``)."""
    from tests.world import build_world

    return build_world(cast)


@pytest.fixture
def rival(cast, django_user_model):
    """A second campaign ("Other league", with the Phalon) whose organiser organises
    nothing of the cast's campaign, and a staff user with no membership."""
    from campaign.league.models import Campaign, Membership
    from factions.models import Faction

    other = Campaign.objects.create(name="Other league", slug="other-league")
    phalon = Faction.objects.create(name="Phalon", slug="phalon")
    other.factions.add(phalon)
    organiser = django_user_model.objects.create_user("other_organiser", password="pw-12345!")
    Membership.objects.create(campaign=other, user=organiser, role=Membership.Role.ORGANISER)
    staff = django_user_model.objects.create_user("staff", password="pw-12345!", is_staff=True)

    class Rival:
        pass

    r = Rival()
    r.campaign, r.phalon, r.organiser, r.staff = other, phalon, organiser, staff
    return r


@pytest.fixture
def duel(cast, django_user_model):
    """A draft Qatzrin–Phalon skirmish with a player on each side, ready to be fought turn
    by turn (``tests.battles.battle_fixtures.make_duel``)."""
    from tests.battles.battle_fixtures import make_duel

    return make_duel(cast, django_user_model)
