"""``python manage.py import_campaign FILE``: create a campaign from a document written by
``export_campaign`` (``campaign.exchange.load``), in one transaction.

Acts as the system actor. Refused, naming the JSON path, for another schema version, an
invalid field, a dangling reference, or a campaign, faction or fleet slug that exists
here already; nothing is written then. Users named in the document who have no account
here get one with no usable password (the command lists them).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.core.actors import SYSTEM
from campaign.core.refusals import Refused
from campaign.exchange.load import campaign_import


class Command(BaseCommand):
    help = "Create a campaign from a JSON document written by export_campaign."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the document ('-': stdin)")

    def handle(self, *args, file: Path, **options):
        try:
            text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
            document = json.loads(text)
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from exc
        except json.JSONDecodeError as exc:
            raise CommandError(f"{file}: not JSON (line {exc.lineno}: {exc.msg})") from exc
        try:
            result = campaign_import(document=document, user=SYSTEM)
        except Refused as exc:
            lines = [str(exc)] + [f"  {field}: {message}" for field, message in exc.errors[1:]]
            raise CommandError("\n".join(lines)) from exc
        total = sum(result.rows.values())
        self.stdout.write(
            self.style.SUCCESS(
                f"Campaign '{result.campaign.slug}' imported: {total} rows "
                f"({result.rows['factions']} factions, {result.rows['ships']} ships, "
                f"{result.rows['battles']} battles, {result.rows['events']} events)."
            )
        )
        if result.users_created:
            self.stdout.write(
                "Accounts created without a usable password (set one in the admin, or "
                "use Forgotten password? once they have an e-mail address): "
                + ", ".join(result.users_created)
            )
