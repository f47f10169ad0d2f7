from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TurnsConfig(AppConfig):
    """The campaign turn: repairs, construction, treasuries."""

    name = "campaign.turns"
    label = "turns"  # kept from before the layout move: tables and migrations unchanged
    verbose_name = _("campaign turns")
