from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StarmapConfig(AppConfig):
    """The star map: systems, links, territories placed in them, fleet positions."""

    name = "campaign.starmap"
    label = "starmap"
    verbose_name = _("star map")
