from pathlib import Path
from typing import Any

from django.apps import AppConfig
from django.utils.autoreload import autoreload_started
from django.utils.translation import gettext_lazy as _


def watch_rules_sources(sender: Any, **kwargs: Any) -> None:
    """runserver reloads on an edit to any ``battles/rules`` source, also when the engine
    runs compiled (its modules then come from ``build/``, which the reloader would watch
    instead); the reloaded process finds the build stale and runs the plain Python."""
    import battles.rules

    if battles.rules.COMPILED:
        sender.watch_dir(Path(battles.rules.__file__).parent, "**/*.py")


class BattlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "battles"
    verbose_name = _("battles")

    def ready(self) -> None:

        autoreload_started.connect(watch_rules_sources)
