from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TurnsConfig(AppConfig):
    """The campaign turn: repairs, construction, treasuries (DESIGN.md §4b, issue 11)."""

    name = "turns"
    verbose_name = _("campaign turns")
