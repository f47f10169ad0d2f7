"""campaign.league.members and campaign.league.invitations: every service, exact results and
refusals
naming the field, history with the acting user, nothing written on a refusal."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from campaign.core.validation import TextError
from campaign.league import invitations
from campaign.league.members import (
    MemberError,
    MemberPermissionError,
    membership_add,
    membership_change,
    membership_remove,
)
from campaign.league.models import Invitation, Membership

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
ORG, PLAYER, CHRON = (Membership.Role.ORGANISER, Membership.Role.PLAYER, Membership.Role.CHRONICLER)


def _rows(campaign):
    return sorted(
        Membership.objects.filter(campaign=campaign).values_list(
            "user__username", "role", "faction__slug"
        )
    )


def test_add_change_remove_with_history(cast, django_user_model):
    c = cast
    dora = django_user_model.objects.create_user("dora")
    m = membership_add(
        campaign=c.campaign, user=dora, role=PLAYER, faction=c.qatzrin, by=c.organiser
    )
    assert (m.user, m.role, m.faction) == (dora, "player", c.qatzrin)
    m = membership_change(membership=m, role=CHRON, faction=None, by=c.organiser)
    assert (m.role, m.faction) == ("chronicler", None)
    membership_remove(membership=m, by=c.organiser)
    assert not Membership.objects.filter(user=dora).exists()
    history = list(
        Membership.history.filter(user=dora)
        .order_by("history_id")
        .values_list("history_type", "role", "faction__slug", "history_user__username")
    )
    assert history == [
        ("+", "player", "qatzrin", "organiser"),
        ("~", "chronicler", None, "organiser"),
        ("-", "chronicler", None, "organiser"),
    ]


@pytest.mark.parametrize(
    ("role", "faction", "message"),
    [
        ("captain", None, "role: 'captain' is not one of organiser, player, chronicler"),
        ("player", None, "faction: a player plays one faction; choose it"),
        ("chronicler", "norge", "faction: only players have a faction; this role is chronicler"),
        ("player", "phalon", "faction: Phalon does not play in Test league"),
    ],
)
def test_add_refuses_bad_role_or_faction(cast, rival, role, faction, message):
    c = cast
    factions = {"norge": c.norge, "phalon": rival.phalon, None: None}
    before = _rows(c.campaign)
    with pytest.raises(MemberError) as exc:
        membership_add(
            campaign=c.campaign,
            user=c.outsider,
            role=role,
            faction=factions[faction],
            by=c.organiser,
        )
    assert str(exc.value) == message
    assert _rows(c.campaign) == before


def test_a_role_held_already_is_refused(cast):
    c = cast
    with pytest.raises(MemberError) as exc:
        membership_add(
            campaign=c.campaign, user=c.norge_player, role=PLAYER, faction=c.qatzrin, by=c.organiser
        )
    assert str(exc.value) == "role: norge_player already holds the role player in Test league"
    chron = Membership.objects.get(user=c.chronicler)
    membership_add(campaign=c.campaign, user=c.chronicler, role=ORG, by=c.organiser)
    with pytest.raises(MemberError, match="role: chronicler already holds the role organiser"):
        membership_change(membership=chron, role=ORG, by=c.organiser)


@pytest.mark.parametrize("who", ["norge_player", "chronicler", "outsider"])
def test_only_organisers_and_staff_act(cast, rival, who):
    c = cast
    member = Membership.objects.get(user=c.norge_player)
    for actor in (getattr(c, who), rival.organiser):
        with pytest.raises(MemberPermissionError, match="you do not organise Test league"):
            membership_add(campaign=c.campaign, user=c.outsider, role=CHRON, by=actor)
        with pytest.raises(MemberPermissionError):
            membership_change(membership=member, role=CHRON, by=actor)
        with pytest.raises(MemberPermissionError):
            membership_remove(membership=member, by=actor)
        with pytest.raises(MemberPermissionError):
            invitations.invitation_create(campaign=c.campaign, role=CHRON, by=actor)
    m = membership_add(campaign=c.campaign, user=c.outsider, role=CHRON, by=rival.staff)
    assert m.history.get().history_user == rival.staff


def test_the_last_organiser_stays(cast):
    c = cast
    org = Membership.objects.get(user=c.organiser, role=ORG)
    for action in (
        lambda: membership_remove(membership=org, by=c.organiser),
        lambda: membership_change(membership=org, role=CHRON, by=c.organiser),
    ):
        with pytest.raises(MemberError) as exc:
            action()
        assert str(exc.value) == (
            "role: organiser is the last organiser of Test league; make someone else an "
            "organiser first"
        )
    assert Membership.objects.get(pk=org.pk).role == "organiser"
    membership_add(campaign=c.campaign, user=c.chronicler, role=ORG, by=c.organiser)
    membership_remove(membership=org, by=c.organiser)
    assert _rows(c.campaign)[:2] == [
        ("chronicler", "chronicler", None),
        ("chronicler", "organiser", None),
    ]


def test_invitation_create_mails_the_link(cast, django_capture_on_commit_callbacks):
    c = cast
    with django_capture_on_commit_callbacks(execute=True):
        inv, token = invitations.invitation_create(
            campaign=c.campaign,
            role=PLAYER,
            faction=c.norge,
            email=" eve@example.org ",
            by=c.organiser,
            link_base="https://league.example",
        )
    assert len(token) == 43 and inv.token_hash == invitations.token_hash(token)
    assert token not in str(Invitation.objects.filter(pk=inv.pk).values().get())
    assert (inv.email, inv.role, inv.faction, inv.state()) == (
        "eve@example.org",
        "player",
        c.norge,
        "pending",
    )
    assert inv.expires_at - inv.created_at == timedelta(days=7)
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["eve@example.org"]
    assert sent.subject == "Invitation to Test league"
    assert f"https://league.example/invitations/{token}/" in sent.body
    assert "join Test league as player of Kongeriket Norge" in sent.body


def test_invitation_create_refuses_bad_email_and_text(cast):
    c = cast
    with pytest.raises(MemberError, match="^e-mail: 'not-an-address' is not an e-mail address$"):
        invitations.invitation_create(
            campaign=c.campaign, role=CHRON, email="not-an-address", by=c.organiser
        )
    with pytest.raises(TextError) as exc:
        invitations.invitation_create(
            campaign=c.campaign, role=CHRON, email="a\x00@b.fr", by=c.organiser
        )
    assert exc.value.field == "e-mail"
    assert not Invitation.objects.exists()


def test_accept_sign_up_and_dead_links(cast, rival, settings):
    c = cast
    inv, token = invitations.invitation_create(
        campaign=c.campaign, role=PLAYER, faction=c.qatzrin, by=c.organiser
    )
    m = invitations.invitation_accept(token=token, user=c.outsider)
    assert (m.user, m.role, m.faction) == (c.outsider, "player", c.qatzrin)
    inv.refresh_from_db()
    assert (inv.state(), inv.accepted_by) == ("accepted", c.outsider)
    with pytest.raises(MemberError, match="^invitation: this link is accepted$"):
        invitations.invitation_accept(token=token, user=rival.organiser)
    with pytest.raises(MemberError, match="^invitation: this link is not an invitation$"):
        invitations.invitation_accept(token="nope", user=rival.organiser)

    _inv2, token2 = invitations.invitation_create(campaign=c.campaign, role=CHRON, by=c.organiser)
    with pytest.raises(MemberError, match="^invitation: this link is not an invitation$"):
        invitations.invitation_accept(token=token2, user=rival.organiser, campaign=rival.campaign)
    user, m2 = invitations.invitation_sign_up(
        token=token2, username="fred", password="a-long passphrase 42", email="f@example.org"
    )
    assert (user.username, user.email, user.check_password("a-long passphrase 42")) == (
        "fred",
        "f@example.org",
        True,
    )
    assert (m2.campaign, m2.role) == (c.campaign, "chronicler")
    assert m2.history.get().history_user == user

    inv3, token3 = invitations.invitation_create(campaign=c.campaign, role=CHRON, by=c.organiser)
    invitations.invitation_revoke(invitation=inv3, by=c.organiser)
    with pytest.raises(MemberError, match="^invitation: this link is revoked$"):
        invitations.invitation_accept(token=token3, user=rival.organiser)
    with pytest.raises(MemberError, match="^invitation: it is revoked already$"):
        invitations.invitation_revoke(invitation=inv3, by=c.organiser)

    inv4, token4 = invitations.invitation_create(campaign=c.campaign, role=CHRON, by=c.organiser)
    Invitation.objects.filter(pk=inv4.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(MemberError, match="^invitation: this link is expired$"):
        invitations.invitation_sign_up(
            token=token4, username="gina", password="a-long passphrase 42"
        )
    assert not get_user_model().objects.filter(username="gina").exists()
    assert [i.pk for i in invitations.pending_invitations(c.campaign)] == []


@pytest.mark.parametrize(
    ("username", "password", "email", "message"),
    [
        ("", "a-long passphrase 42", "", "username: choose a user name"),
        ("Outsider", "a-long passphrase 42", "", "username: 'Outsider' is taken"),
        ("bad name!", "a-long passphrase 42", "", "username: "),
        ("hana", "12345678", "", "password: "),
        ("hana", "short", "", "password: "),
        ("hana", "a-long passphrase 42", "nope", "e-mail: 'nope' is not an e-mail address"),
    ],
)
def test_sign_up_refusals_name_the_field(cast, username, password, email, message):
    _inv, token = invitations.invitation_create(
        campaign=cast.campaign, role=CHRON, by=cast.organiser
    )
    users = get_user_model().objects.count()
    with pytest.raises(MemberError) as exc:
        invitations.invitation_sign_up(
            token=token, username=username, password=password, email=email
        )
    assert str(exc.value).startswith(message) and len(str(exc.value)) > len("password: ")
    assert get_user_model().objects.count() == users
    assert invitations.invitation_find(token).state() == "pending"
