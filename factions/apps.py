from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FactionsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "factions"
    verbose_name = _("factions")
