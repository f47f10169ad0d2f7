"""Admin of battles. Every change made here raises the battle's ``version`` (a revision
number people see on the report); reports themselves never go stale whatever changed,
see ``battles.reports.files.report_render``."""

from django.contrib import admin
from django.db.models import F
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from battles.models import (
    Battle,
    BattleAction,
    BattleSide,
    BattleSnapshot,
    Event,
    Participant,
    RecordEntry,
    Report,
)
from battles.models.turn_orders import TurnOrders, TurnPlay


def _bump_version(battle_id: int) -> None:
    """Raise ``Battle.version`` by one, in the database (no lost update)."""
    Battle.objects.filter(pk=battle_id).update(version=F("version") + 1)


class BattleSideInline(admin.StackedInline):
    model = BattleSide
    extra = 0


@admin.register(Battle)
class BattleAdmin(SimpleHistoryAdmin):
    list_display = ("name", "campaign", "location", "campaign_turn", "mode", "status", "winner")
    list_filter = ("campaign", "status", "mode")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("version",)
    inlines = [BattleSideInline]

    def save_model(self, request, obj: Battle, form, change: bool) -> None:
        """Save, raising the revision number on every change (sides included: Django
        calls this before saving the inlines). An outcome edited here is the staff's own
        words: the engine's stored message no longer says it."""
        if "outcome" in form.changed_data:
            obj.outcome_message = {}
        if change:
            obj.version = (
                Battle.objects.filter(pk=obj.pk).values_list("version", flat=True).first() or 0
            ) + 1
        super().save_model(request, obj, form, change)


@admin.register(BattleSide)
class BattleSideAdmin(SimpleHistoryAdmin):
    list_display = ("battle", "faction", "fleet", "is_winner")
    list_select_related = ("battle", "faction", "fleet")

    @admin.display(boolean=True, description=_("winner"))
    def is_winner(self, obj: BattleSide) -> bool:
        """Derived from the battle's winner (``BattleSide.is_winner``)."""
        return obj.is_winner

    def save_model(self, request, obj: BattleSide, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        _bump_version(obj.battle_id)


@admin.register(Participant)
class ParticipantAdmin(SimpleHistoryAdmin):
    list_display = ("__str__", "side", "fate", "hull_lost", "armour_lost")
    list_filter = ("fate",)

    def save_model(self, request, obj: Participant, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        _bump_version(obj.side.battle_id)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("battle", "sequence", "game_turn", "phase", "kind", "summary")
    list_filter = ("battle", "kind")


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("battle", "format", "version", "digest", "rendered_at")
    readonly_fields = ("version", "digest", "rendered_at")


# --- Other game systems (seeds 001–004): the roster and the recorded unit results -----
from battles.models.other_games import SystemParticipant, SystemUnit  # noqa: E402


@admin.register(SystemUnit)
class SystemUnitAdmin(admin.ModelAdmin):
    list_display = ("name", "faction", "game_system", "kind")
    list_filter = ("game_system", "faction")
    search_fields = ("name", "kind")


@admin.register(SystemParticipant)
class SystemParticipantAdmin(admin.ModelAdmin):
    list_display = ("name", "side", "fate", "hull_lost")
    list_filter = ("fate",)
    list_select_related = ("side__battle", "side__faction")


@admin.register(BattleAction)
class BattleActionAdmin(admin.ModelAdmin):
    """The battles' timelines (who did what, when): read-only."""

    list_display = ("battle", "at", "kind", "user", "summary")
    list_filter = ("kind",)
    readonly_fields = ("battle", "user", "kind", "summary", "data", "at")

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(RecordEntry)
class RecordEntryAdmin(SimpleHistoryAdmin):
    list_display = ("battle", "side", "status", "submitted_by", "submitted_at", "confirmed_by")
    list_filter = ("status",)


@admin.register(BattleSnapshot)
class BattleSnapshotAdmin(admin.ModelAdmin):
    """What a conclusion changed, as it was before (read by ``battle_reopen``): read-only."""

    list_display = ("battle", "created_at")
    readonly_fields = ("battle", "data", "created_at")

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(TurnPlay)
class TurnPlayAdmin(admin.ModelAdmin):
    """Turn-by-turn plays (staff): read them here; players and organisers act on the pages."""

    list_display = ("battle", "turns_played", "max_turns", "deadline", "ended")
    readonly_fields = ("setup", "started_by", "started_at")


@admin.register(TurnOrders)
class TurnOrdersAdmin(admin.ModelAdmin):
    """Orders per turn and side (staff)."""

    list_display = ("battle", "game_turn", "side", "auto", "submitted_by", "submitted_at")
    list_filter = ("auto",)
