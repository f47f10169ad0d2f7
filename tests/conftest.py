"""Shared test cast, markers and the fixtures tests of several packages use.

- ``integration`` tests run only with ADMIRALTY_INTEGRATION=1 (``make test-integration``,
  which CI runs through ``make test`` when CI=true): real PostgreSQL, broker and worker.
- ``e2e`` tests need Chromium (installed by .ci/run); they skip when it is absent.

The cast (``cast``, ``rival``), the page tests' league (``world``), the sample campaign
ready for turns (``sample``), a draft skirmish (``battle``), the turn-by-turn duel
(``duel``), ship classes for fleet-list imports (``classes``), ``english`` (a module
opts in with ``pytestmark = pytest.mark.usefixtures("english")``); the test clients
``logged_in`` and ``client_for``.
"""

import os
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import transaction
from django.test import Client
from django.utils import translation

from campaign.league.models import Campaign, Membership
from campaign.sample.loader import sample_load
from factions.models import Faction, ShipClass
from tests.battles.battle_fixtures import draft_skirmish, make_duel
from tests.world import build_world

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
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Every test starts with an empty cache: request limits (campaign.core.throttle)
    counted by an earlier test must not refuse this one's requests."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _site_root(settings, tmp_path_factory):
    """The site a published report refreshes lives in a test folder, never ./site."""
    settings.SITE_ROOT = tmp_path_factory.mktemp("site-root") / "site"


@pytest.fixture
def cast(db, django_user_model):
    """An organiser, two players of rival factions, a chronicler and an outsider."""
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
    return build_world(cast)


@pytest.fixture
def rival(cast, django_user_model):
    """A second campaign ("Other league", with the Phalon) whose organiser organises
    nothing of the cast's campaign, and a staff user with no membership."""
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
    return make_duel(cast, django_user_model)


@pytest.fixture
def english():
    """Run the test in English (the site's default is French)."""
    with translation.override("en"):
        yield


def logged_in(user=None) -> Client:
    """A test client logged in as ``user`` (None: anonymous)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def client_for(cast, rival, who, **headers):
    """A test client logged in as ``who``: a cast member's name, ``other_org`` (the rival
    campaign's organiser), ``staff``, or None (anonymous)."""
    client = Client(**headers)
    if who:
        users = {"other_org": rival.organiser, "staff": rival.staff} if rival else {}
        client.force_login(users.get(who) or getattr(cast, who))
    return client


@pytest.fixture
def battle(cast):
    return draft_skirmish(cast.campaign)


@pytest.fixture
def sample(db, django_user_model):
    """The sample campaign loaded, with an organiser, a Norwegian and a Qatzrin player, a
    chronicler and an outsider; a second campaign ``other`` with its own organiser.
    (tests/campaign/turns loads it once per module: ``sample_module`` below.)"""
    return sample_cast(sample_load().campaign, django_user_model)


@pytest.fixture(scope="module")
def sample_module(django_db_setup, django_db_blocker):
    """The sample campaign's rows loaded once for a whole module (the load is most of a turn
    test's set-up); yields the campaign's pk. The rows live in a transaction left open for
    the module and rolled back at its end; each test runs in a savepoint within it
    (pytest-django's ``db``), so what a test writes is gone before the next one starts, as
    with a load per test. A directory opts in by overriding ``sample`` (see
    tests/campaign/turns/conftest.py); not for transactional or live-server tests, whose
    commits and flushes would happen inside that transaction."""
    with django_db_blocker.unblock(), transaction.atomic():
        with translation.override(django_settings.LANGUAGE_CODE):  # the language every test has
            pk = sample_load().campaign.pk
        yield pk
        transaction.set_rollback(True)


def sample_cast(campaign, django_user_model):
    """The people of the ``sample`` fixture on the loaded sample ``campaign``: users,
    memberships, the campaign ``other``; the Norwegian fleet, yard and ships looked up."""
    norge = Faction.objects.get(slug="kongeriket-norge")
    qatzrin = Faction.objects.get(slug="qatzrin")
    users = {
        name: django_user_model.objects.create_user(name, password="pw-12345!")
        for name in (
            "organiser",
            "norge_player",
            "qatzrin_player",
            "chronicler",
            "outsider",
            "other_org",
        )
    }
    M = Membership.objects
    M.create(campaign=campaign, user=users["organiser"], role="organiser")
    M.create(campaign=campaign, user=users["norge_player"], role="player", faction=norge)
    M.create(campaign=campaign, user=users["qatzrin_player"], role="player", faction=qatzrin)
    M.create(campaign=campaign, user=users["chronicler"], role="chronicler")
    other = Campaign.objects.create(name="Other league", slug="other")
    M.create(campaign=other, user=users["other_org"], role="organiser")

    class S:
        pass

    s = S()
    s.campaign, s.norge, s.qatzrin, s.other = campaign, norge, qatzrin, other
    for k, v in users.items():
        setattr(s, k, v)
    s.fleet = norge.fleets.get()
    s.yard = norge.territories.get(slug="trondelag")
    s.ships = {sh.name or f"{sh.ship_class.name}-{sh.pk}": sh for sh in s.fleet.ships.all()}
    return s


def make_classes(faction, specs):
    for name, type_word, mass, *bays in specs:
        systems = [{"id": f"bay-{i}", "kind": "bay"} for i in range(bays[0] if bays else 0)]
        ShipClass.objects.create(
            faction=faction,
            name=name,
            slug=name.lower().replace("'", ""),
            type_word=type_word,
            mass=mass,
            hull_boxes=mass // 3,
            design={"systems": systems + [{"id": "pd-a", "kind": "pd"}]},
        )


@pytest.fixture
def classes(cast):
    make_classes(
        cast.qatzrin,
        [
            ("Sa'ar", "corvette", 16),
            ("Ra'am", "frégate", 24),
            ("Tzayad", "destroyer", 36),
            ("Yerushalayim-L", "croiseur lourd", 90),
            ("Barak", "croiseur de bataille", 120),
        ],
    )
    cast.g_plus = Faction.objects.create(name="Collectif G+", slug="collectif-g-plus")
    make_classes(
        cast.g_plus,
        [("Kajna", "porte-nef lourd", 150, 4), ("Brima", "porte-nef léger", 80, 1)]
        + [("Mahida", "destroyer", 40)],
    )
    return cast
