from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AdmiraltyConfig(AppConfig):
    """The project package as an app, for what sees every app: its management commands
    (``build_site``, ``demo``, ``load_sample``, ``generate_league``) and template tags
    (``league``, ``csp_extras``). It has no models. The league itself is
    ``campaign.league`` (label ``campaign``)."""

    name = "campaign"
    label = "admiralty"
    verbose_name = _("Admiralty")

    def ready(self) -> None:
        # The project's Celery app, current before any task is sent: ``@shared_task``
        # binds to it (Celery's docs load it in the package's ``__init__``; here it waits
        # for Django, so what only reads the settings loads no Celery: campaign/__init__.py).
        # Receivers connect once the app registry is ready (Django docs, AppConfig.ready):
        # the site refresh on every public change (a battle concluded, recorded or reopened,
        # a report changed, a campaign turn closed or reopened: ``campaign.receivers``, light:
        # the task that builds the site, ``campaign.tasks``, is loaded by the worker).
        import campaign.celery  # noqa: F401
        import campaign.receivers  # noqa: F401
