"""Organisers reveal a hidden fleet to a faction and revoke it: the service's refusals
(nothing written), the effect on the faction's map, and the permission matrix of the
reveal page and API (organiser and staff act; the campaign's other members 403; outsiders,
other campaigns' organisers 404; anonymous: log in / 401)."""

import pytest

from campaign.core.refusals import Kind, Refused
from campaign.fog import reveals
from campaign.fog.knowledge import contact_label
from campaign.fog.models import Reveal, Sighting
from campaign.starmap.models import FleetPosition
from campaign.starmap.view import map_view
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from factions.models import Fleet, Ship
from tests.conftest import client_for

WHO = [
    "organiser",
    "staff",
    "norge_player",
    "qatzrin_player",
    "chronicler",
    "outsider",
    "other_org",
    None,
]
pytestmark = pytest.mark.usefixtures("english")
PAGE_STATUS = {"organiser": 200, "staff": 200, "norge_player": 403, "qatzrin_player": 403}
PAGE_STATUS |= {"chronicler": 403, "outsider": 404, "other_org": 404}


@pytest.fixture
def m(starmap):
    # Out of Norge's reach: Oslo is no station, so only Sol is watched.
    starmap.oslo.kind = "planet"
    starmap.oslo.save()
    return starmap


def refusal(call):
    with pytest.raises(Refused) as info:
        call()
    return info.value.kind, str(info.value), [f for f, _ in info.value.errors]


def test_reveal_shows_a_contact_until_revoked_and_the_close_records_it(m):
    assert map_view(m.campaign, m.norge_player).contacts == []
    reveal = reveals.reveal_fleet(
        campaign=m.campaign, fleet=m.shadow, faction=m.norge, user=m.organiser
    )
    assert (reveal.revealed_by, reveal.revoked_at) == (m.organiser, None)
    view = map_view(m.campaign, m.norge_player)
    label = contact_label(m.campaign.pk, m.shadow.pk)
    assert [(c.label, c.system_id, c.how) for c in view.contacts] == [(label, m.deneb.pk, "reveal")]
    assert "Shadow" not in repr(view)
    campaign_turn_open(campaign=m.campaign, user=m.organiser)
    turn = campaign_turn_close(campaign=m.campaign, user=m.organiser).number
    assert list(Sighting.objects.values_list("observer", "fleet", "turn", "how")) == [
        (m.norge.pk, m.shadow.pk, turn, "reveal")
    ]
    revoked = reveals.reveal_revoke(reveal=reveal, user=m.organiser)
    assert revoked.revoked_by == m.organiser and revoked.revoked_at is not None
    view = map_view(m.campaign, m.norge_player)
    assert view.contacts == []
    assert [(s.label, s.turn, s.how) for s in view.sightings] == [(label, turn, "reveal")]
    # The other faction and the public never see the reveal.
    assert map_view(m.campaign, None).contacts == []


def test_refusals_write_nothing(m, rival):
    def reveal(fleet, faction, user=m.organiser):
        return lambda: reveals.reveal_fleet(
            campaign=m.campaign, fleet=fleet, faction=faction, user=user
        )

    off_map = Fleet.objects.create(faction=m.qatzrin, name="Ghost", slug="ghost", hidden=True)
    assert refusal(reveal(m.raiders, m.norge)) == (
        Kind.INVALID,
        "fleet: Raiders is public, every faction sees where it is",
        ["fleet"],
    )
    assert refusal(reveal(m.shadow, m.qatzrin)) == (
        Kind.INVALID,
        "faction: Shadow is a fleet of Qatzrin",
        ["faction"],
    )
    assert refusal(reveal(m.shadow, rival.phalon)) == (
        Kind.INVALID,
        "faction: Phalon does not play in Test league",
        ["faction"],
    )
    assert refusal(reveal(off_map, m.norge)) == (
        Kind.INVALID,
        "fleet: Ghost is not on the map of Test league",
        ["fleet"],
    )
    assert refusal(reveal(m.shadow, m.norge, m.norge_player))[0] == Kind.FORBIDDEN
    assert refusal(reveal(m.shadow, m.norge, m.outsider))[0] == Kind.NOT_FOUND
    assert refusal(reveal(m.shadow, m.norge, rival.organiser))[0] == Kind.NOT_FOUND
    assert Reveal.objects.count() == 0
    live = reveal(m.shadow, m.norge)()
    assert refusal(reveal(m.shadow, m.norge)) == (
        Kind.CONFLICT,
        "Shadow is already revealed to Kongeriket Norge",
        [],
    )
    reveals.reveal_revoke(reveal=live, user=m.organiser)
    assert refusal(lambda: reveals.reveal_revoke(reveal=live, user=m.organiser))[0] == (
        Kind.CONFLICT
    )
    assert refusal(lambda: reveals.reveal_revoke(reveal=live, user=m.qatzrin_player))[0] == (
        Kind.FORBIDDEN
    )
    # Revoked, the fleet may be revealed again: one live reveal at a time.
    reveal(m.shadow, m.norge)()
    assert Reveal.objects.filter(revoked_at__isnull=True).count() == 1


@pytest.mark.parametrize("who", WHO)
def test_page_permission_matrix(m, rival, who):
    client = client_for(m, rival, who, HTTP_ACCEPT_LANGUAGE="en")
    slug = m.campaign.slug
    page = client.get(f"/campaigns/{slug}/map/reveals/")
    post = client.post(
        f"/campaigns/{slug}/map/reveals/new/", {"fleet": m.shadow.pk, "faction": m.norge.pk}
    )
    if who is None:
        assert page.status_code == post.status_code == 302
        assert page["Location"].startswith("/login/")
        assert Reveal.objects.count() == 0
        return
    expected = PAGE_STATUS[who]
    assert page.status_code == expected
    if expected == 200:
        assert "Shadow (Qatzrin)" in page.content.decode()
        assert post.status_code == 302
        reveal = Reveal.objects.get()
        assert (reveal.fleet, reveal.faction, reveal.revealed_by.username) == (
            m.shadow,
            m.norge,
            "organiser" if who == "organiser" else "staff",
        )
        listed = client.get(f"/campaigns/{slug}/map/reveals/").content.decode()
        assert "Shadow to Kongeriket Norge" in listed and "Revealed on" in listed
        revoke = client.post(
            f"/campaigns/{slug}/map/reveals/{reveal.pk}/revoke/", {"confirm": "yes"}
        )
        assert revoke.status_code == 302
        reveal.refresh_from_db()
        assert reveal.revoked_at is not None
    else:
        assert post.status_code == expected
        assert Reveal.objects.count() == 0


def test_page_refusal_names_the_field(m):
    client = client_for(m, None, "organiser", HTTP_ACCEPT_LANGUAGE="en")
    answer = client.post(
        f"/campaigns/{m.campaign.slug}/map/reveals/new/",
        {"fleet": m.shadow.pk, "faction": m.qatzrin.pk},
    )
    assert answer.status_code == 422
    body = answer.content.decode()
    assert 'id="reveal-faction" name="faction" required aria-invalid="true"' in body
    assert "faction: Shadow is a fleet of Qatzrin" in body
    bad = client.post(f"/campaigns/{m.campaign.slug}/map/reveals/new/", {"fleet": "x" * 30})
    assert bad.status_code == 422 and "fleet: choose a fleet on the map" in bad.content.decode()
    assert Reveal.objects.count() == 0


@pytest.mark.parametrize("who", WHO)
def test_api_permission_matrix(m, rival, who):
    client = client_for(m, rival, who)
    url = f"/api/campaigns/{m.campaign.slug}/map/reveals"
    listed = client.get(url)
    made = client.post(
        url, {"fleet": "shadow", "faction": "kongeriket-norge"}, content_type="application/json"
    )
    expected = {None: 401}.get(who, PAGE_STATUS.get(who))
    if expected == 200:
        assert listed.status_code == 200 and listed.json() == []
        assert made.status_code == 201
        body = made.json()
        assert (body["fleet"], body["faction"], body["revoked_at"]) == (
            "shadow",
            "kongeriket-norge",
            None,
        )
        revoked = client.post(f"{url}/{body['id']}/revoke")
        assert revoked.status_code == 200 and revoked.json()["revoked_by"] == body["revealed_by"]
        again = client.post(f"{url}/{body['id']}/revoke")
        assert again.status_code == 409
    else:
        assert listed.status_code == made.status_code == expected
        assert Reveal.objects.count() == 0


def test_api_bad_input_names_the_field(m):
    client = client_for(m, None, "organiser")
    url = f"/api/campaigns/{m.campaign.slug}/map/reveals"
    for payload, field in [
        ({"fleet": "nope", "faction": "kongeriket-norge"}, "fleet"),
        ({"fleet": "shadow", "faction": "phalon"}, "faction"),
        ({"fleet": "raiders", "faction": "kongeriket-norge"}, "fleet"),
    ]:
        answer = client.post(url, payload, content_type="application/json")
        assert answer.status_code == 422, payload
        assert [e["field"] for e in answer.json()["errors"]] == [field]
    assert Reveal.objects.count() == 0


def test_reveals_page_queries_flat_as_reveals_grow(m, django_assert_max_num_queries):
    client = client_for(m, None, "organiser")
    url = f"/campaigns/{m.campaign.slug}/map/reveals/"
    client.get(url)
    with django_assert_max_num_queries(30) as small:
        client.get(url)
    cls = m.shadow.ships.get().ship_class
    for i in range(15):
        fleet = Fleet.objects.create(
            faction=m.qatzrin, name=f"Ghost {i}", slug=f"ghost-{i}", hidden=True
        )
        Ship.objects.create(fleet=fleet, ship_class=cls, name=f"G{i}")
        FleetPosition.objects.create(campaign=m.campaign, fleet=fleet, system=m.far)
        reveal = reveals.reveal_fleet(
            campaign=m.campaign, fleet=fleet, faction=m.norge, user=m.organiser
        )
        if i % 2:
            reveals.reveal_revoke(reveal=reveal, user=m.organiser)
    with django_assert_max_num_queries(len(small.captured_queries)):
        body = client.get(url).content.decode()
    assert (
        body.count("Ghost 14 (Qatzrin)") == 1
        and body.count('class="member-card" id="reveal-') == 15
    )


def test_api_another_campaigns_fleet_is_no_fleet_and_never_named(m, rival):
    """Revealing a hidden fleet of another campaign is refused as an unknown slug: its name
    is in no answer, and nothing is written."""
    Fleet.objects.create(
        faction=rival.phalon, name="Secret Armada", slug="secret-armada", hidden=True
    )
    answer = client_for(m, rival, "organiser").post(
        f"/api/campaigns/{m.campaign.slug}/map/reveals",
        {"fleet": "secret-armada", "faction": "kongeriket-norge"},
        content_type="application/json",
    )
    assert answer.status_code == 422
    assert [e["field"] for e in answer.json()["errors"]] == ["fleet"]
    assert "Secret Armada" not in answer.content.decode()
    assert Reveal.objects.count() == 0
