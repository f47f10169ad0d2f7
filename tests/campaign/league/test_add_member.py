"""``manage.py add_member``: organiser, player, chronicler; clear errors."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from campaign.league.models import Membership
from campaign.league.roles import is_organiser, player_faction_ids

pytestmark = pytest.mark.django_db


def test_add_member_creates_users_with_each_role(cast, monkeypatch, django_user_model):
    monkeypatch.setenv("NEW_PW", "s3cret-pass!")
    call_command("add_member", "ada", cast.campaign.slug, "organiser", "--password-from-env",
                 "NEW_PW")  # fmt: skip
    call_command("add_member", "bo", cast.campaign.slug, "player", "--faction", "qatzrin")
    call_command("add_member", "cy", cast.campaign.slug, "chronicler")
    ada = django_user_model.objects.get(username="ada")
    assert ada.check_password("s3cret-pass!")
    assert is_organiser(ada, cast.campaign)
    bo = django_user_model.objects.get(username="bo")
    assert not bo.has_usable_password()
    assert player_faction_ids(bo) == {cast.qatzrin.pk}
    assert Membership.objects.get(user__username="cy").role == "chronicler"


@pytest.mark.parametrize(
    "args,message",
    [
        (["x", "nope", "organiser"], "campaign: no campaign"),
        (["x", "test-league", "player"], "--faction: a player"),
        (["x", "test-league", "player", "--faction", "phalon"], "not in campaign"),
        (["x", "test-league", "chronicler", "--faction", "qatzrin"], "only players"),
    ],
)
def test_add_member_errors_name_the_argument(cast, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("add_member", *args)
    assert not Membership.objects.filter(user__username="x").exists()


def _run(*args) -> str:
    out = StringIO()
    call_command("add_member", *args, stdout=out)
    return out.getvalue().strip()


def test_add_member_goes_through_the_services_and_says_what_it_did(cast, monkeypatch):
    slug = cast.campaign.slug
    assert _run("bo", slug, "player", "--faction", "qatzrin") == (
        "created user bo: now player of qatzrin in test-league"
    )
    assert _run("bo", slug, "player", "--faction", "qatzrin") == (
        "existing user bo: already player of qatzrin in test-league; nothing changed"
    )
    # A player given another faction is switched to it, and the output says so.
    assert _run("bo", slug, "player", "--faction", "kongeriket-norge") == (
        "existing user bo: now player of kongeriket-norge in test-league (was player of qatzrin)"
    )
    membership = Membership.objects.get(user__username="bo")
    assert membership.faction == cast.norge
    # The services' history: added (+), then changed (~), no acting user (the command).
    history = list(membership.history.order_by("history_date"))
    assert [(h.history_type, h.faction_id) for h in history] == [
        ("+", cast.qatzrin.pk),
        ("~", cast.norge.pk),
    ]
    assert {h.history_user for h in history} == {None}
    monkeypatch.setenv("PW", "another-s3cret")
    assert _run("bo", slug, "chronicler", "--password-from-env", "PW") == (
        "existing user bo (password set): now chronicler in test-league"
    )
    assert sorted(
        Membership.objects.filter(user__username="bo").values_list("role", flat=True)
    ) == [
        "chronicler",
        "player",
    ]
