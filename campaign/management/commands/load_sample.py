"""``python manage.py load_sample``: the sample campaign of the seed (idempotent).

Calls ``campaign.sample.loader.sample_load``; data files in ``campaign/sample/``.
"""

from django.core.management.base import BaseCommand, CommandError

from campaign.sample.loader import SampleDataError, sample_load
from factions.catalogue_loader import CatalogueError


class Command(BaseCommand):
    help = "Load the sample campaign (factions, fleets, the Miranda battle); safe to re-run."

    def handle(self, *args: object, **options: object) -> None:
        try:
            summary = sample_load()
        except (SampleDataError, CatalogueError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"Sample campaign '{summary.campaign.slug}': {summary.factions} factions, "
                f"{summary.territories} territories, {summary.fleets} fleets, "
                f"{summary.ships} ships, {summary.light_units} light-unit groups, "
                f"{summary.battles} battle(s), {summary.participants} participants."
            )
        )
