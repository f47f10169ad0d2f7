"""``manage.py add_member USER CAMPAIGN ROLE [--faction SLUG] [--password-from-env VAR]``:
give a user a role in a campaign (organiser, player of a faction, chronicler), creating
the user when needed. The admin (Campaign → Memberships) does the same for staff.

Memberships go through ``campaign.league.members`` like the members page and the API (their
checks, one transaction, the history), with no acting user: whoever runs the command on
the server may. A player given another faction is switched to it (a player plays one
faction per campaign); the output says what was done.
"""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from campaign.league.members import MemberError, membership_add, membership_change
from campaign.league.models import Campaign, Membership


def _what(role: str, faction: Any) -> str:
    return f"{role} of {faction.slug}" if faction else role


class Command(BaseCommand):
    help = "Give USER the ROLE (organiser, player, chronicler) in CAMPAIGN (its slug)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("user", help="user name (created, without a usable password, if new)")
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument("role", choices=Membership.Role.values)
        parser.add_argument("--faction", help="faction slug (required for a player)")
        parser.add_argument(
            "--password-from-env",
            metavar="VAR",
            help="set the user's password from this environment variable",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"campaign: no campaign with slug {options['campaign']!r}")
        role = options["role"]
        faction = None
        if role == Membership.Role.PLAYER:
            if not options["faction"]:
                raise CommandError("--faction: a player plays one faction; give its slug")
            faction = campaign.factions.filter(slug=options["faction"]).first()
            if faction is None:
                known = ", ".join(campaign.factions.values_list("slug", flat=True))
                raise CommandError(
                    f"--faction: {options['faction']!r} is not in campaign "
                    f"{campaign.slug} ({known})"
                )
        elif options["faction"]:
            raise CommandError(f"--faction: only players have a faction, not a {role}")
        password = None
        if options["password_from_env"]:
            password = os.environ.get(options["password_from_env"])
            if not password:
                raise CommandError(f"--password-from-env: ${options['password_from_env']} is empty")
        try:
            with transaction.atomic():
                user, created = get_user_model().objects.get_or_create(username=options["user"])
                if created and password is None:
                    user.set_unusable_password()
                if password is not None:
                    user.set_password(password)
                if created or password is not None:
                    user.save()
                done = self._give(user, campaign, role, faction)
        except MemberError as exc:
            raise CommandError(str(exc)) from exc
        who = f"{'created' if created else 'existing'} user {user.get_username()}"
        if password is not None:
            who += " (password set)"
        self.stdout.write(f"{who}: {done}")

    def _give(self, user: Any, campaign: Campaign, role: str, faction: Any) -> str:
        """Add or change the membership through the services; what was done, in words."""
        held = Membership.objects.filter(campaign=campaign, user=user, role=role)
        held = held.select_related("faction").first()
        where = f"in {campaign.slug}"
        if held is None:
            membership_add(
                campaign=campaign, user=user, role=role, faction=faction, by=None, check=False
            )
            return f"now {_what(role, faction)} {where}"
        if held.faction_id == (faction.pk if faction else None):
            return f"already {_what(role, faction)} {where}; nothing changed"
        before = _what(role, held.faction)
        membership_change(membership=held, role=role, faction=faction, by=None, check=False)
        return f"now {_what(role, faction)} {where} (was {before})"
