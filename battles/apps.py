from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "battles"
    verbose_name = _("battles")

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the system checks)
