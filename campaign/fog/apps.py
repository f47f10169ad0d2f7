from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FogConfig(AppConfig):
    """Fog of war on the star map: sensor reach, sightings, organisers' reveals."""

    name = "campaign.fog"
    label = "fog"
    verbose_name = _("fog of war")

    def ready(self) -> None:
        # The turn close (a lower module of the same layer) announces itself through
        # campaign.core.signals; the sightings are written by the receivers connected here.
        from campaign.fog import sightings

        sightings.connect()
