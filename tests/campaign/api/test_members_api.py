"""The members and invitations API: the permission matrix for every endpoint, each action
with its exact answer, refusals as 400/403/404 naming the field, nothing written then."""

from __future__ import annotations

import pytest
from django.test import Client

from campaign.league import invitations
from campaign.league.api_auth import api_token_create
from campaign.league.models import Invitation, Membership
from tests.conftest import client_for as _client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
WHO = ["organiser", "norge_player", "chronicler", "outsider", "other_org", "staff", None]
BASE = "/api/campaigns/test-league"
LAST = "role: organiser is the last organiser of Test league; make someone else an organiser first"


def _json(c, method, url, body=None):
    return getattr(c, method)(url, body, content_type="application/json")


def _state():
    return (
        sorted(Membership.objects.values_list("user__username", "role", "faction_id")),
        sorted(Invitation.objects.values_list("pk", "revoked_at", "accepted_at")),
    )


@pytest.mark.parametrize("who", WHO)
def test_permission_matrix(cast, rival, who):
    c = cast
    client = client_for(c, rival, who)
    inv, _token = invitations.invitation_create(
        campaign=c.campaign, role="chronicler", by=c.organiser
    )
    member = Membership.objects.get(user=c.norge_player)
    calls = [
        ("get", f"{BASE}/members", None, 200),
        ("post", f"{BASE}/members", {"username": "outsider", "role": "chronicler"}, 201),
        ("put", f"{BASE}/members/{member.pk}", {"role": "player", "faction": "qatzrin"}, 200),
        ("delete", f"{BASE}/members/{member.pk}", None, 204),
        ("get", f"{BASE}/invitations", None, 200),
        ("post", f"{BASE}/invitations", {"role": "chronicler"}, 201),
        ("post", f"{BASE}/invitations/{inv.pk}/revoke", None, 200),
    ]
    before = _state()
    for method, url, body, ok in calls:
        r = _json(client, method, url, body)
        # Members without the role: 403; anyone outside the campaign: 404.
        expected = {None: 401, "organiser": ok, "staff": ok}.get(
            who, 403 if who in ("norge_player", "chronicler") else 404
        )
        if (
            who == "outsider"
            and method == "post"
            and url.endswith("/members")
            and who == "organiser"
        ):
            expected = ok
        assert r.status_code == expected, (method, url, r.content)
    if who not in ("organiser", "staff"):
        assert _state() == before


def test_member_endpoints_answer_exactly(cast):
    c = cast
    client = client_for(c, None, "organiser")
    listed = _json(client, "get", f"{BASE}/members").json()
    ids = {m["username"]: m["id"] for m in listed}
    assert [(m["username"], m["role"], m["faction"]) for m in listed] == [
        ("chronicler", "chronicler", None),
        ("norge_player", "player", "kongeriket-norge"),
        ("organiser", "organiser", None),
        ("qatzrin_player", "player", "qatzrin"),
    ]
    r = _json(
        client,
        "post",
        f"{BASE}/members",
        {"username": "outsider", "role": "player", "faction": "qatzrin"},
    )
    assert r.status_code == 201
    assert r.json() == {
        "id": r.json()["id"],
        "username": "outsider",
        "role": "player",
        "faction": "qatzrin",
    }
    r = _json(client, "put", f"{BASE}/members/{ids['chronicler']}", {"role": "organiser"})
    assert r.json() == {
        "id": ids["chronicler"],
        "username": "chronicler",
        "role": "organiser",
        "faction": None,
    }
    assert _json(client, "delete", f"{BASE}/members/{ids['qatzrin_player']}").status_code == 204
    assert (
        Membership.history.filter(user=c.qatzrin_player, history_type="-").get().history_user
        == c.organiser
    )


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "detail"),
    [
        (
            "post",
            "/members",
            {"username": "ghost", "role": "chronicler"},
            400,
            "username: no user 'ghost'",
        ),
        (
            "post",
            "/members",
            {"username": "outsider", "role": "king"},
            400,
            "role: 'king' is not one of organiser, player, chronicler",
        ),
        (
            "post",
            "/members",
            {"username": "outsider", "role": "player", "faction": "phalon"},
            400,
            "faction: 'phalon' does not play in Test league",
        ),
        (
            "post",
            "/members",
            {"username": "outsider", "role": "player"},
            400,
            "faction: a player plays one faction; choose it",
        ),
        (
            "put",
            "/members/ORG",
            {"role": "player", "faction": "qatzrin"},
            400,
            LAST,
        ),
        (
            "delete",
            "/members/ORG",
            None,
            400,
            LAST,
        ),
        ("put", "/members/999999", {"role": "chronicler"}, 404, "not found"),
        (
            "post",
            "/invitations",
            {"role": "chronicler", "email": "nope"},
            400,
            "e-mail: 'nope' is not an e-mail address",
        ),
        (
            "post",
            "/invitations",
            {"role": "chronicler", "faction": "x\u0000"},
            422,
            "faction: contains a NUL character (\\x00)",
        ),
    ],
)
def test_refusals_name_the_field(cast, rival, method, path, body, status, detail):
    client = client_for(cast, rival, "organiser")
    path = path.replace("ORG", str(Membership.objects.get(user=cast.organiser).pk))
    before = _state()
    r = _json(client, method, BASE + path, body)
    assert (r.status_code, r.json()["detail"]) == (status, detail)
    assert _state() == before


def test_invitation_lifecycle_through_the_api(cast, rival, django_user_model):
    c = cast
    org = client_for(c, rival, "organiser")
    r = _json(org, "post", f"{BASE}/invitations", {"role": "player", "faction": "kongeriket-norge"})
    assert r.status_code == 201
    body = r.json()
    token = body["link"].rsplit("/", 2)[1]
    assert body["link"] == f"http://testserver/invitations/{token}/"
    assert (body["role"], body["faction"], body["email"], body["state"]) == (
        "player",
        "kongeriket-norge",
        "",
        "pending",
    )
    listed = _json(org, "get", f"{BASE}/invitations").json()
    assert [(i["id"], i["link"]) for i in listed] == [(body["id"], None)]

    # Wrong campaign: the token is refused there, as if unknown.
    newcomer = django_user_model.objects.create_user("newcomer", password="pw-12345!")
    _row, bearer = api_token_create(user=newcomer, name="script")
    script = Client(HTTP_AUTHORIZATION=f"Bearer {bearer}", HTTP_ACCEPT_LANGUAGE="en")
    r = _json(script, "post", "/api/campaigns/other-league/invitations/accept", {"token": token})
    assert (r.status_code, r.json()["detail"]) == (
        400,
        "invitation: this link is not an invitation",
    )
    r = _json(script, "post", f"{BASE}/invitations/accept", {"token": token})
    assert r.status_code == 201
    assert r.json() == {
        "id": r.json()["id"],
        "username": "newcomer",
        "role": "player",
        "faction": "kongeriket-norge",
    }
    r = _json(script, "post", f"{BASE}/invitations/accept", {"token": token})
    assert (r.status_code, r.json()["detail"]) == (400, "invitation: this link is accepted")
    assert (
        _json(Client(), "post", f"{BASE}/invitations/accept", {"token": token}).status_code == 401
    )

    r = _json(org, "post", f"{BASE}/invitations", {"role": "chronicler"})
    revoked = _json(org, "post", f"{BASE}/invitations/{r.json()['id']}/revoke").json()
    assert (revoked["state"], revoked["link"]) == ("revoked", None)
    r = _json(org, "post", f"{BASE}/invitations/{revoked['id']}/revoke")
    assert (r.status_code, r.json()["detail"]) == (400, "invitation: it is revoked already")
    # Another campaign's invitation is not found under this one.
    other, _t = invitations.invitation_create(
        campaign=rival.campaign, role="chronicler", by=rival.organiser
    )
    assert _json(org, "post", f"{BASE}/invitations/{other.pk}/revoke").status_code == 404


def client_for(cast, rival, who):
    return _client_for(cast, rival, who, HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.parametrize("extra", [3, 30])
def test_member_list_query_count_is_flat(cast, django_user_model, django_assert_num_queries, extra):
    c = cast
    users = django_user_model.objects.bulk_create(
        [django_user_model(username=f"member{i:02d}") for i in range(extra)]
    )
    Membership.objects.bulk_create(
        [Membership(campaign=c.campaign, user=u, role="player", faction=c.norge) for u in users]
    )
    client = client_for(c, None, "organiser")
    # session, user, campaign, is_organiser, the members with users and factions
    with django_assert_num_queries(5):
        r = _json(client, "get", f"{BASE}/members")
    assert len(r.json()) == 4 + extra
