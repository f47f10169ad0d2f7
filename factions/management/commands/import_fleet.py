"""``python manage.py import_fleet FILE --faction SLUG [--name NAME] [--admiral A] [--hidden]``.

Creates a fleet from a text fleet list (notation: ``factions/fleetlists.py``) through
``factions.services.fleet_import``; on any error nothing is written and every error line is
printed.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from factions.fleetlists import FleetListError
from factions.services import FleetImportError, UnknownFaction, faction_by_slug, fleet_import


class Command(BaseCommand):
    help = "Create a fleet from a text fleet list (e.g. '3 corvettes classe Sa'ar')."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="UTF-8 text file, one unit per line")
        parser.add_argument("--faction", required=True, help="faction slug, e.g. qatzrin")
        parser.add_argument("--name", help="fleet name (default: the file name)")
        parser.add_argument("--admiral", default="", help="the fleet's admiral")
        parser.add_argument("--hidden", action="store_true", help="hide it from other factions")

    def handle(self, *args: object, **options: object) -> None:
        path: Path = options["file"]  # type: ignore[assignment]
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}") from exc
        try:
            faction = faction_by_slug(slug=str(options["faction"]))
        except UnknownFaction as exc:
            raise CommandError(str(exc)) from exc
        name = str(options["name"] or path.stem.replace("_", " "))
        try:
            fleet = fleet_import(
                faction=faction,
                text=text,
                fleet_name=name,
                admiral=str(options["admiral"]),
                hidden=bool(options["hidden"]),
            )
        except (FleetListError, FleetImportError) as exc:
            raise CommandError(f"{path}:\n{exc}") from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"Created fleet {fleet.name!r} ({fleet.slug}): {fleet.ships.count()} ships, "
                f"{fleet.light_units.count()} light-unit groups."
            )
        )
