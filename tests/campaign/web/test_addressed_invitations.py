"""An invitation sent to an e-mail address is taken only by an account that proves it holds
that address (a confirmation link mailed there, bound to the account), and no page,
answer or refusal shows the address to whoever holds the link. Before: an anonymous
sign-up with an empty e-mail became organiser, an account without an address took it, the
refusal named the invited address and the link page prefilled it for anyone."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from campaign.league import invitations
from campaign.league.members import MemberError
from campaign.league.models import Membership
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

ADDRESS = "Dora@Example.org"


@pytest.fixture
def invited(cast):
    _inv, token = invitations.invitation_create(
        campaign=cast.campaign, role="organiser", email=ADDRESS, by=cast.organiser
    )
    mail.outbox.clear()
    cast.token, cast.url = token, f"/invitations/{token}/"
    return cast


def _confirm_link(outbox_index: int = -1) -> str:
    sent = mail.outbox[outbox_index]
    assert sent.to == [ADDRESS]
    return re.search(r"http://testserver(/invitations/\S+/confirm/\S+/)", sent.body)[1]


def test_an_anonymous_sign_up_without_the_address_does_not_join(
    invited, django_capture_on_commit_callbacks
):
    anon = Client()
    with django_capture_on_commit_callbacks(execute=True):
        r = anon.post(invited.url, {"username": "mallory", "password": "a-long passphrase 42"})
    assert r.status_code == 200
    assert "Nous avons envoyé un lien de confirmation à l’adresse" in r.content.decode()
    mallory = get_user_model().objects.get(username="mallory")
    assert not Membership.objects.filter(user=mallory).exists()
    assert invitations.invitation_find(invited.token).state() == "pending"
    assert len(mail.outbox) == 1 and "mallory" in mail.outbox[0].body
    # Only the holder of the mailbox can follow the link: then the account joins.
    link = _confirm_link()
    page = anon.get(link).content.decode()
    assert "Rejoindre la campagne" in page and ADDRESS.lower() not in page.lower()
    code = link.rstrip("/").rsplit("/", 1)[1]
    assert anon.post(link, {"confirmation": code}).status_code == 302
    assert Membership.objects.filter(user=mallory, role="organiser").exists()
    mallory.refresh_from_db()
    assert mallory.email == ADDRESS  # the account now holds the proven address


def test_an_account_without_an_address_does_not_take_it(
    invited, django_capture_on_commit_callbacks
):
    invited.norge_player.email = ""
    invited.norge_player.save()
    with pytest.raises(MemberError):
        invitations.invitation_accept(token=invited.token, user=invited.norge_player)
    player = client_for(invited, None, "norge_player")
    page = player.get(invited.url).content.decode()
    assert "M’envoyer le lien de confirmation" in page and "Rejoindre la campagne" not in page
    with django_capture_on_commit_callbacks(execute=True):
        r = player.post(invited.url)
    assert r.status_code == 200
    assert not Membership.objects.filter(user=invited.norge_player, role="organiser").exists()
    # The API refuses it alike without the mailed confirmation.
    api = player.post(
        f"/api/campaigns/{invited.campaign.slug}/invitations/accept",
        {"token": invited.token},
        content_type="application/json",
    )
    assert api.status_code == 400
    code = _confirm_link().rstrip("/").rsplit("/", 1)[1]
    api = player.post(
        f"/api/campaigns/{invited.campaign.slug}/invitations/accept",
        {"token": invited.token, "confirmation": code},
        content_type="application/json",
    )
    assert api.status_code == 201, api.content


def test_the_refusal_for_another_account_never_names_the_address(
    invited, django_capture_on_commit_callbacks
):
    invited.norge_player.email = "nils@example.org"
    invited.norge_player.save()
    invited.chronicler.email = ADDRESS.lower()
    invited.chronicler.save()
    player = client_for(invited, None, "norge_player")
    r = player.post(invited.url, {"confirmation": "forged"})
    assert r.status_code == 400
    assert "ce lien de confirmation n’est pas valable pour votre compte" in r.content.decode()
    # Even the addressee's own account needs the mailed link, and another account's link
    # does not work for the player.
    with django_capture_on_commit_callbacks(execute=True):
        client_for(invited, None, "chronicler").post(invited.url)
    code = _confirm_link().rstrip("/").rsplit("/", 1)[1]
    refused = player.post(invited.url, {"confirmation": code})
    assert refused.status_code == 400
    with pytest.raises(MemberError) as exc:
        invitations.invitation_accept(token=invited.token, user=invited.norge_player)
    for text in (str(exc.value), r.content.decode(), refused.content.decode()):
        assert "dora@" not in text.lower()
    assert not Membership.objects.filter(user=invited.norge_player, role="organiser").exists()
    assert invitations.invitation_find(invited.token).state() == "pending"


def test_the_link_page_never_shows_the_address(invited):
    for who in (None, "norge_player", "outsider"):
        page = client_for(invited, None, who).get(invited.url).content.decode()
        assert "dora@" not in page.lower()
    page = Client().get(invited.url).content.decode()
    assert 'name="email" value=""' in page


def test_an_invitation_without_an_address_is_taken_by_the_link_alone(cast):
    _inv, token = invitations.invitation_create(
        campaign=cast.campaign, role="chronicler", by=cast.organiser
    )
    r = Client().post(
        f"/invitations/{token}/", {"username": "zoe", "password": "a-long passphrase 42"}
    )
    assert r.status_code == 302
    assert Membership.objects.filter(user__username="zoe", role="chronicler").exists()
