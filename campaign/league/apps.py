from django.apps import AppConfig
from django.db.models.signals import pre_save
from django.utils.translation import gettext_lazy as _

from campaign.core.validation import check_model_text


def _check_text_before_save(sender, instance, raw=False, **kwargs) -> None:
    """Refuse text no column can store, identically on SQLite and PostgreSQL
    (``campaign.core.validation``); fixtures (``raw``) are loaded as they are."""
    if not raw:
        check_model_text(instance)


class LeagueConfig(AppConfig):
    """The league: campaigns, memberships, invitations, API tokens (app label ``campaign``,
    kept from before the layout move: its tables and migration history are unchanged)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "campaign.league"
    label = "campaign"
    verbose_name = _("campaign")

    def ready(self) -> None:
        pre_save.connect(_check_text_before_save, dispatch_uid="campaign_check_text")
