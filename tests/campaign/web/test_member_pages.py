"""The members page, its actions and the invitation link: the permission matrix (every
page and action for each kind of user), the invitation's lifecycle through the pages,
and the members list's query count, flat as members grow."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from campaign.league import invitations
from campaign.league.models import Invitation, Membership
from tests.conftest import client_for

pytestmark = pytest.mark.django_db
WHO = ["organiser", "norge_player", "chronicler", "outsider", "other_org", "staff", None]
ALLOWED = {"organiser", "staff"}


def _state():
    return (
        sorted(Membership.objects.values_list("user__username", "role", "faction_id")),
        sorted(Invitation.objects.values_list("pk", "revoked_at")),
    )


@pytest.mark.parametrize("who", WHO)
def test_members_page_and_actions_permission_matrix(cast, rival, who):
    c = cast
    client = client_for(c, rival, who)
    inv, _token = invitations.invitation_create(
        campaign=c.campaign, role="chronicler", by=c.organiser
    )
    member = Membership.objects.get(user=c.norge_player)
    base = "/campaigns/test-league"
    before = _state()
    page = client.get(f"{base}/members/")
    posts = [
        (f"{base}/members/add/", {"username": "outsider", "role": "chronicler", "faction": ""}),
        (f"{base}/members/{member.pk}/change/", {"role": "player", "faction": c.qatzrin.pk}),
        (f"{base}/members/{member.pk}/remove/", {"confirm": "yes"}),
        (f"{base}/invitations/", {"role": "chronicler"}),
        (f"{base}/invitations/{inv.pk}/revoke/", {"confirm": "yes"}),
    ]
    if who is None:
        assert page.status_code == 302 and page["Location"].startswith("/login/?next=")
        for url, data in posts:
            r = client.post(url, data)
            assert r.status_code == 302 and r["Location"].startswith("/login/")
        assert _state() == before
    elif who not in ALLOWED:
        # Members without the role: 403; anyone outside the campaign: 404.
        refused = 403 if who in ("norge_player", "chronicler") else 404
        assert page.status_code == refused
        for url, data in posts:
            assert client.post(url, data).status_code == refused
        assert _state() == before
        # Another campaign's members page: 404 as well (and its organiser is no exception).
        assert client.get("/campaigns/other-league/members/").status_code == (
            200 if who == "other_org" else 404
        )
    else:
        assert page.status_code == 200
        assert "norge_player" in page.content.decode()
        for url, data in posts:
            r = client.post(url, data)
            assert r.status_code == 302 and r["Location"] == f"{base}/members/"
        assert not Membership.objects.filter(user=c.norge_player).exists()
        assert Membership.objects.filter(user=c.outsider, role="chronicler").exists()
        assert Invitation.objects.get(pk=inv.pk).state() == "revoked"
        assert Invitation.objects.filter(revoked_at=None).count() == 1
    # The campaign page links the members page for organisers and staff only.
    detail = client.get(f"{base}/").content.decode()
    assert ('id="members-link"' in detail) == (who in ALLOWED)


def test_members_page_shows_roles_and_the_new_link_once(cast, django_capture_on_commit_callbacks):
    c = cast
    client = client_for(c, None, "organiser")
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(
            "/campaigns/test-league/invitations/",
            {"role": "player", "faction": c.norge.pk, "email": "ivy@example.org"},
        )
    assert r.status_code == 302
    page = client.get("/campaigns/test-league/members/").content.decode()
    inv = Invitation.objects.get()
    link = mail.outbox[0].body.split("\n")[3]
    assert link.startswith("http://testserver/invitations/")
    assert invitations.invitation_find(link.rsplit("/", 2)[1]) == inv
    assert f'value="{link}"' in page
    assert "Invitation créée." in page
    assert "Joueur — Kongeriket Norge · ivy@example.org" in page
    assert "Chroniqueur" in page and "Organisateur" in page
    again = client.get("/campaigns/test-league/members/").content.decode()
    assert link not in again and "Joueur — Kongeriket Norge" in again


def test_page_errors_are_messages_naming_the_field(cast):
    c = cast
    client = client_for(c, None, "organiser")
    org = Membership.objects.get(user=c.organiser)
    before = _state()
    cases = [
        (
            f"/campaigns/test-league/members/{org.pk}/remove/",
            {"confirm": "yes"},
            "rôle\u202f: organiser est le dernier organisateur",
        ),
        ("/campaigns/test-league/invitations/", {"role": "player"}, "faction\u202f: un joueur"),
        (
            "/campaigns/test-league/invitations/",
            {"role": "player", "faction": "x"},
            "faction\u202f: choisissez",
        ),
        (
            "/campaigns/test-league/invitations/",
            {"role": "chronicler", "email": "x"},
            "adresse e-mail\u202f: «\u202fx\u202f»",
        ),
    ]
    for url, data, message in cases:
        r = client.post(url, data, follow=True)
        # A refused invitation comes back at once (400) with what was typed.
        assert r.status_code == (400 if "invitations" in url else 200)
        assert message in r.content.decode(), message
    assert _state() == before


def test_a_refused_invitation_keeps_what_was_typed_and_marks_the_field(cast):
    c = cast
    client = client_for(c, None, "organiser")
    url = "/campaigns/test-league/invitations/"
    before = _state()
    r = client.post(url, {"role": "player", "faction": "", "email": "bob@example.org"})
    text = r.content.decode()
    assert r.status_code == 400
    form = text.split('id="invite"')[1].split("</form>")[0]
    assert 'value="bob@example.org"' in form
    assert '<option value="player" selected>' in form
    # The message sits right after the faction select, which is marked.
    faction = form.split('id="invite-faction"')[1].split("</p>")[0]
    assert 'aria-invalid="true"' in faction
    assert "faction\u202f: un joueur joue une faction\u202f; choisissez-la</span>" in faction
    assert form.count('aria-invalid="true"') == 1
    r = client.post(url, {"role": "chronicler", "email": "x"})
    form = r.content.decode().split('id="invite"')[1].split("</form>")[0]
    assert '<option value="chronicler" selected>' in form
    email = form.split('id="invite-email"')[1].split("</p>")[0]
    assert 'value="x"' in email and 'aria-invalid="true"' in email
    assert "adresse e-mail\u202f: «\u202fx\u202f»" in email
    assert _state() == before
    r = client.post(url, {"role": "player", "faction": c.norge.pk, "email": "bob@example.org"})
    assert r.status_code == 302


def test_invitation_link_lifecycle(cast, rival):
    c = cast
    inv, token = invitations.invitation_create(
        campaign=c.campaign, role="player", faction=c.qatzrin, by=c.organiser
    )
    url = f"/invitations/{token}/"
    anon = Client()
    page = anon.get(url).content.decode()
    assert "rejoindre la campagne en tant que joueur de Qatzrin" in page
    assert f'<a href="/login/?next={url}">Connectez-vous</a>' in page
    # A weak password: the form comes back with the error, nothing is created.
    r = anon.post(url, {"username": "jo", "password": "123", "email": ""})
    assert r.status_code == 400 and "mot de passe\u202f: " in r.content.decode()
    assert not get_user_model().objects.filter(username="jo").exists()
    r = anon.post(url, {"username": "jo", "password": "a-long passphrase 42", "email": ""})
    assert r.status_code == 302 and r["Location"] == "/campaigns/test-league/"
    landed = anon.get(r["Location"]).content.decode()
    # The welcome names the faction the player joins for.
    assert "Bienvenue dans Test league\u202f: votre rôle est joueur, pour Qatzrin." in landed
    assert "Test league</a>: joueur (Qatzrin)" in landed
    # Used: a page that says so, for anyone.
    used = Client().get(url)
    assert used.status_code == 410 and "a déjà servi" in used.content.decode()
    assert client_for(c, rival, "other_org").post(url).status_code == 410

    # A logged-in user joins with one button.
    _inv2, token2 = invitations.invitation_create(
        campaign=c.campaign, role="chronicler", by=c.organiser
    )
    other = client_for(c, rival, "other_org")
    assert "Rejoindre la campagne" in other.get(f"/invitations/{token2}/").content.decode()
    assert other.post(f"/invitations/{token2}/").status_code == 302
    assert Membership.objects.filter(
        user=rival.organiser, campaign=c.campaign, role="chronicler"
    ).exists()
    # Holding the role already: refused with the reason, invitation still usable.
    _inv3, token3 = invitations.invitation_create(
        campaign=c.campaign, role="chronicler", by=c.organiser
    )
    r = other.post(f"/invitations/{token3}/")
    assert r.status_code == 400 and "déjà" in r.content.decode()
    assert invitations.invitation_find(token3).state() == "pending"

    inv4, token4 = invitations.invitation_create(
        campaign=c.campaign, role="chronicler", by=c.organiser
    )
    invitations.invitation_revoke(invitation=inv4, by=c.organiser)
    r = Client().get(f"/invitations/{token4}/")
    assert r.status_code == 410 and "révoquée" in r.content.decode()
    inv5, token5 = invitations.invitation_create(
        campaign=c.campaign, role="chronicler", by=c.organiser
    )
    Invitation.objects.filter(pk=inv5.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    r = Client().post(
        f"/invitations/{token5}/", {"username": "kim", "password": "a-long passphrase 42"}
    )
    assert r.status_code == 410 and "expiré" in r.content.decode()
    assert not get_user_model().objects.filter(username="kim").exists()
    r = Client().get("/invitations/not-a-token/")
    assert r.status_code == 404 and "copié en entier" in r.content.decode()


@pytest.mark.parametrize("extra", [3, 30])
def test_members_list_query_count_is_flat(
    cast, rival, django_user_model, django_assert_num_queries, extra
):
    c = cast
    users = django_user_model.objects.bulk_create(
        [django_user_model(username=f"member{i:02d}") for i in range(extra)]
    )
    Membership.objects.bulk_create(
        [
            Membership(
                campaign=c.campaign, user=u, role="player", faction=c.norge if i % 2 else c.qatzrin
            )
            for i, u in enumerate(users)
        ]
    )
    for _ in range(extra // 3):
        invitations.invitation_create(
            campaign=c.campaign, role="player", faction=c.norge, by=c.organiser
        )
    client = client_for(c, rival, "organiser")
    client.get("/campaigns/test-league/members/")  # warm the session
    # session, user, is_organiser, campaign, members, invitations, factions, the
    # header's memberships
    with django_assert_num_queries(8):
        r = client.get("/campaigns/test-league/members/")
    assert r.content.decode().count('class="member-card"') == 4 + extra + extra // 3


def test_adding_an_existing_user_by_name(cast):
    c = cast
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(c.organiser)
    url = "/campaigns/test-league/members/add/"
    page = client.get("/campaigns/test-league/members/").content.decode()
    assert f'action="{url}"' in page and 'name="username"' in page
    before = _state()
    ghost, nobody = (
        {"username": "ghost", "role": "chronicler"},
        {"username": " ", "role": "chronicler"},
    )
    player, admiral = (
        {"username": "outsider", "role": "player"},
        {"username": "outsider", "role": "admiral"},
    )
    refusals = [
        (ghost, "username: no user 'ghost'", "username"),
        (nobody, "username: give the user name", "username"),
        (player, "faction: a player plays one faction", "faction"),
        (admiral, "role: 'admiral' is not one of", "role"),
        ({**player, "faction": "999"}, "faction: choose a faction", "faction"),
        ({"username": "norge_player", "role": "player", "faction": c.norge.pk},
         "role: norge_player already holds the role player in Test league", "role"),
    ]  # fmt: skip
    for data, message, field in refusals:
        r = client.post(url, data)
        text = r.content.decode()
        assert r.status_code == 400 and escape(message) in text, data
        # The page comes back with what was typed and the field marked.
        assert f'value="{data["username"]}"' in text
        marked = text.split('id="member-add"')[1].split("</form>")[0]
        assert marked.count('aria-invalid="true"') == 1
        assert f'id="add-{field}" name="{field}"' in marked.split('aria-invalid="true"')[0]
    assert _state() == before
    r = client.post(url, {"username": "outsider", "role": "player", "faction": c.qatzrin.pk})
    assert r.status_code == 302 and r["Location"] == "/campaigns/test-league/members/"
    added = Membership.objects.get(user=c.outsider)
    assert (added.role, added.faction) == ("player", c.qatzrin)
    # Through the service: the history keeps who added them.
    assert added.history.get().history_user == c.organiser
    page = client.get("/campaigns/test-league/members/").content.decode()
    assert "outsider added: player of Qatzrin." in page
    # In French, the default language, the refusal names the field too.
    fr = Client()
    fr.force_login(c.organiser)
    r = fr.post(url, {"username": "fantome", "role": "chronicler"})
    assert r.status_code == 400
    assert (
        escape("nom d’utilisateur\u202f: aucun utilisateur «\u202ffantome\u202f»")
        in r.content.decode()
    )


@pytest.mark.parametrize(
    ("days", "lang", "line"),
    [
        (1, "fr", "Le lien fonctionne une fois et expire dans 1 jour."),
        (7, "fr", "Le lien fonctionne une fois et expire dans 7 jours."),
        (1, "en", "The link works once and expires in 1 day."),
        (7, "en", "The link works once and expires in 7 days."),
    ],
)
def test_the_invitation_mail_counts_its_days(
    cast, settings, django_capture_on_commit_callbacks, days, lang, line
):
    from django.utils import translation

    settings.INVITATION_EXPIRY_DAYS = days
    with translation.override(lang), django_capture_on_commit_callbacks(execute=True):
        invitations.invitation_create(
            campaign=cast.campaign,
            role="chronicler",
            email="ivy@example.org",
            by=cast.organiser,
            link_base="http://testserver",
        )
    assert line in mail.outbox[0].body.splitlines()


def test_an_invitation_sent_to_an_address_is_not_taken_by_another_account(
    cast, django_capture_on_commit_callbacks
):
    """Holding the link is not enough: joining needs the confirmation link mailed to the
    invited address, which the page never shows (tests/campaign/web/
    test_addressed_invitations.py covers each way in)."""
    c = cast
    c.norge_player.email = "nils@example.org"
    c.norge_player.save()
    _inv, token = invitations.invitation_create(
        campaign=c.campaign, role="chronicler", email="Dora@Example.org", by=c.organiser
    )
    url = f"/invitations/{token}/"
    player = client_for(c, None, "norge_player")
    page = player.get(url).content.decode()
    # The page says which roles the account holds and that the address must be confirmed.
    assert "Vos rôles dans cette campagne : joueur (Kongeriket Norge)." in page
    assert "Cette invitation a été envoyée à une adresse e-mail :" in page
    assert "Dora@Example.org" not in page and "Rejoindre la campagne" not in page
    with django_capture_on_commit_callbacks(execute=True):
        r = player.post(url)
    assert r.status_code == 200 and "Dora@Example.org" not in r.content.decode()
    assert mail.outbox[-1].to == ["Dora@Example.org"]
    assert not Membership.objects.filter(user=c.norge_player, role="chronicler").exists()
    assert invitations.invitation_find(token).state() == "pending"
    # Whoever holds that mailbox decides: following the link joins the asking account.
    link = re.search(r"http://testserver(/invitations/\S+/confirm/\S+/)", mail.outbox[-1].body)[1]
    page = player.get(link).content.decode()
    assert "Rejoindre la campagne" in page
    assert "Rejoindre ajoute le rôle chroniqueur ; il ne remplace pas les autres." in page
    code = link.rstrip("/").rsplit("/", 1)[1]
    assert player.post(link, {"confirmation": code}).status_code == 302
    assert Membership.objects.filter(user=c.norge_player, role="chronicler").exists()


def test_removing_asks_first_and_is_not_offered_for_the_last_organiser(cast):
    c = cast
    client = client_for(c, None, "organiser")
    org = Membership.objects.get(user=c.organiser)
    player = Membership.objects.get(user=c.norge_player)
    page = client.get("/campaigns/test-league/members/").content.decode()
    mine = page.split(f'id="member-{org.pk}"')[1].split("</li>")[0]
    assert "/remove/" not in mine and "Dernier organisateur" in mine
    theirs = page.split(f'id="member-{player.pk}"')[1].split("</li>")[0]
    assert f"/members/{player.pk}/remove/" in theirs
    assert 'name="confirm" value="yes" required' in theirs
    assert "Je confirme\u202f: retirer norge_player (joueur) de la campagne" in theirs
    # Without the box ticked, nothing is removed.
    r = client.post(f"/campaigns/test-league/members/{player.pk}/remove/", follow=True)
    assert (
        "Cochez «\u202fJe confirme\u202f» pour continuer\u202f; rien n’a été fait."
        in r.content.decode()
    )
    assert Membership.objects.filter(pk=player.pk).exists()
