"""``manage.py add_member``: organiser, player, chronicler; clear errors."""

import pytest
from django.core.management import CommandError, call_command

from campaign import access
from campaign.models import Membership

pytestmark = pytest.mark.django_db


def test_add_member_creates_users_with_each_role(cast, monkeypatch, django_user_model):
    monkeypatch.setenv("NEW_PW", "s3cret-pass!")
    call_command("add_member", "ada", cast.campaign.slug, "organiser", "--password-from-env",
                 "NEW_PW")  # fmt: skip
    call_command("add_member", "bo", cast.campaign.slug, "player", "--faction", "qatzrin")
    call_command("add_member", "cy", cast.campaign.slug, "chronicler")
    ada = django_user_model.objects.get(username="ada")
    assert ada.check_password("s3cret-pass!")
    assert access.is_organiser(ada, cast.campaign)
    bo = django_user_model.objects.get(username="bo")
    assert not bo.has_usable_password()
    assert access.player_faction_ids(bo) == {cast.qatzrin.pk}
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
