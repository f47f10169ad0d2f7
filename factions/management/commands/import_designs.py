"""``python manage.py import_designs FILE --faction SLUG [--format …] [--dry-run] [--replace]``.

Reads ship designs (ftLibShip / ftShipBuilder JSON or our ``admiralty-design/1`` documents,
see ``factions/designs/imports.py``), prints one line per ship, what could not be mapped,
what does not validate and printed points that differ from the construction rules' price
(stored as printed), then writes the ship classes in one transaction (nothing with
``--dry-run``). A class that already has ships is kept as it is (and reported) unless
``--replace`` is given; a replacement must keep every system id a ship has lost.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.core.validation import TextError
from factions.designs.imports import FORMATS, ImportFormatError, designs_parse, designs_save
from factions.models import Faction


class Command(BaseCommand):
    help = "Import ship designs (ftLibShip JSON or admiralty designs) into a faction."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="JSON file to read")
        parser.add_argument("--faction", required=True, help="slug of the receiving faction")
        parser.add_argument("--format", choices=FORMATS, default="auto")
        parser.add_argument("--dry-run", action="store_true", help="report only, write nothing")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="also rewrite classes that already have ships",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        path: Path = opts["file"]
        try:
            faction = Faction.objects.get(slug=opts["faction"])
        except Faction.DoesNotExist as exc:
            raise CommandError(f"no faction with slug '{opts['faction']}'") from exc
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}") from exc
        except UnicodeDecodeError as exc:
            raise CommandError(
                f"{path}: not a UTF-8 text file (byte {exc.start}: {exc.reason}); "
                "expected a JSON design file"
            ) from exc
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}: line {exc.lineno}: {exc.msg}") from exc
        try:
            result = designs_parse(data, faction=faction.slug, format=opts["format"])
        except ImportFormatError as exc:
            raise CommandError(f"{path}: {exc}") from exc

        out = self.stdout
        for design in result.designs:
            name = design["name"]
            points = design.get("points")
            flag = " [provisional]" if design.get("provisional") else ""
            out.write(
                f"{name} — {design.get('type_word') or '?'}, mass {design['mass']}, "
                f"points {points if points is not None else '—'}{flag}"
            )
            for u in result.unmapped:
                if u.ship == name:
                    out.write(f"    not mapped: {u.system} ({u.reason})")
            for e in result.errors_for(name):
                out.write(f"    does not validate: {e.field}: {e.message}")
            for m in result.points_mismatch:
                if m.ship == name:
                    out.write(self.style.WARNING(f"    points differ: {m}"))
        kept = {d["name"] for d in result.designs}
        for e in result.invalid:
            if e.ship not in kept:
                out.write(f"{e.ship}: rejected: {e.field}: {e.message}")
        summary = (
            f"{len(result.designs)} design(s) read ({result.format}), "
            f"{len(result.unmapped)} system(s) not mapped, "
            f"{len({e.ship for e in result.invalid})} design(s) with validation errors"
        )
        if result.points_mismatch:
            summary += (
                f", {len(result.points_mismatch)} design(s) whose printed points differ "
                "from their construction"
            )
        if opts["dry_run"]:
            out.write(f"{summary}; dry run, nothing written")
            return
        try:
            saved = designs_save(
                faction=faction,
                result=result,
                replace=opts["replace"],
            )
        except (ValueError, TextError) as exc:  # TextError: text no column can store
            raise CommandError(f"{summary}; nothing written: {exc}") from exc
        for class_kept in result.kept:
            out.write(self.style.WARNING(f"kept: {class_kept}; use --replace"))
        kept_note = f", {len(result.kept)} kept" if result.kept else ""
        out.write(self.style.SUCCESS(f"{summary}; {len(saved)} ship class(es) written{kept_note}"))
