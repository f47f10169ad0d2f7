from pathlib import Path
from typing import Any

from django.apps import AppConfig
from django.utils.autoreload import autoreload_started
from django.utils.translation import gettext_lazy as _

import battles.rules


def watch_rules_sources(sender: Any, **kwargs: Any) -> None:
    """runserver reloads on an edit to any ``battles/rules`` source, also when the engine
    runs compiled (its modules then come from ``build/``, which the reloader would watch
    instead); the reloaded process finds the build stale and runs the plain Python."""
    if battles.rules.COMPILED:
        sender.watch_dir(Path(battles.rules.__file__).parent, "**/*.py")


class BattlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "battles"
    verbose_name = _("battles")

    def ready(self) -> None:
        # What the upper layers hook into the lower ones, connected once the app registry
        # is ready (Django docs, AppConfig.ready; these modules import models): the
        # reports' receivers of battles.signals, the star map's meetings, the replay of
        # turn-by-turn set-ups, and the system checks of report rendering.
        import battles.reports.checks  # noqa: F401
        import battles.reports.receivers  # noqa: F401
        import battles.services.meetings  # noqa: F401  (drafts a battle where fleets meet)
        from battles.play.game_turns import turn_battle_replay
        from battles.services.resolve import SETUP_REPLAYS

        SETUP_REPLAYS["turn_by_turn"] = turn_battle_replay
        autoreload_started.connect(watch_rules_sources)
