from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotifyConfig(AppConfig):
    """Notifications: e-mail and webhook messages on a campaign's events."""

    name = "campaign.notify"
    label = "notify"
    verbose_name = _("notifications")

    def ready(self) -> None:
        # Receivers and system checks connect once the app registry is ready (Django
        # docs, AppConfig.ready): the signals of the battles and campaign-turn layers.
        import campaign.notify.checks  # noqa: F401
        import campaign.notify.receivers  # noqa: F401
        import campaign.notify.reminders  # noqa: F401  (its beat task)
        import campaign.notify.requeue  # noqa: F401  (its beat task)
