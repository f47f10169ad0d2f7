"""``manage.py add_member USER CAMPAIGN ROLE [--faction SLUG] [--password-from-env VAR]``:
give a user a role in a campaign (organiser, player of a faction, chronicler), creating
the user when needed. The admin (Campaign → Memberships) does the same for staff.
"""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from campaign.models import Campaign, Membership


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
        with transaction.atomic():
            user, created = get_user_model().objects.get_or_create(username=options["user"])
            if created and password is None:
                user.set_unusable_password()
            if password is not None:
                user.set_password(password)
            user.save()
            membership, new = Membership.objects.update_or_create(
                campaign=campaign, user=user, role=role, defaults={"faction": faction}
            )
        what = f"{role}" + (f" of {faction.slug}" if faction else "")
        self.stdout.write(
            f"{'created' if created else 'existing'} user {user.username}: "
            f"{'now' if new else 'still'} {what} in {campaign.slug}"
        )
