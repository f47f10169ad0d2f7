from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "campaign"
    verbose_name = _("campaign")
