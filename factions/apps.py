from django.apps import AppConfig, apps
from django.db import connections
from django.db.backends.signals import connection_created
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _

from campaign.core.bulk_rows import rows_updated


class FactionsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "factions"
    verbose_name = _("factions")

    def ready(self) -> None:
        # versioning defines a model, so it is imported once the app registry is ready
        # (Django docs, AppConfig.ready).
        from factions import versioning

        # Instance saves and deletes (cascades too) and bulk row updates
        # (campaign.core.bulk_rows) change the fleet data version.
        for label in versioning.WATCHED:
            model = apps.get_model(label)
            post_save.connect(versioning.changed, sender=model, dispatch_uid=f"version-{label}")
            post_delete.connect(
                versioning.changed, sender=model, dispatch_uid=f"version-del-{label}"
            )
            rows_updated.connect(
                versioning.changed, sender=model, dispatch_uid=f"version-rows-{label}"
            )

        # Every statement that writes a watched table marks the campaign data changed
        # (versioning.watch_writes): on each connection made from now on, and on any
        # made before the registry was ready.
        connection_created.connect(versioning.install_watch, dispatch_uid="version-campaign-writes")
        for connection in connections.all(initialized_only=True):
            versioning.install_watch(connection=connection)
