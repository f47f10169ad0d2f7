"""Admin of battles. Every change made here raises the battle's ``version`` (a revision
number people see on the report); reports themselves never go stale whatever changed,
see ``battles.reports.files.report_render``.

What the services guard is read-only here: a battle's status, mode, winner, report state
and conclusion time, a record entry's status and the dice log
(``Event``, which keeps no history). A change of those goes through the services, as the
admin actions below do (resolve, reopen, confirm, reject), so that the snapshot, the
ships' damage, the intel and the timeline follow; an edit of the field alone would leave
them behind. A concluded battle is not deleted either (its damage, refits and intel would
stay applied, and recording it again would apply them twice): reopen it first.
"""

from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.db.models import F, QuerySet
from django.http import HttpRequest
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
from battles.rules.errors import RulesError
from battles.services import battle_reopen, battle_resolve, record_confirm, record_reject
from campaign.core.refusals import Refused

#: What a service refuses in an admin action: shown as the action's error message.
ACTION_ERRORS = (RulesError, Refused)


def _each(modeladmin, request: HttpRequest, queryset: QuerySet, act, done: str) -> None:
    """Run ``act(obj)`` on each selected row, each in its service's own transaction; a
    refused row is reported by name and the others still run."""
    ok = 0
    for obj in queryset:
        try:
            act(obj)
        except ACTION_ERRORS as exc:
            modeladmin.message_user(request, f"{obj}: {exc}", messages.ERROR)
        else:
            ok += 1
    if ok:
        modeladmin.message_user(request, done % {"n": ok}, messages.SUCCESS)


def _bump_version(battle_id: int) -> None:
    """Raise ``Battle.version`` by one, in the database (no lost update)."""
    Battle.objects.filter(pk=battle_id).update(version=F("version") + 1)


class BattleSideInline(admin.StackedInline):
    model = BattleSide
    extra = 0
    readonly_fields = ("is_winner",)


@admin.register(Battle)
class BattleAdmin(SimpleHistoryAdmin):
    list_display = ("name", "campaign", "location", "campaign_turn", "mode", "status", "winner")
    list_filter = ("campaign", "status", "mode")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = (
        "version",
        "status",
        "mode",
        "winner",
        "report_state",
        "report_published_at",
        "concluded_at",
    )
    inlines = [BattleSideInline]
    actions = ["resolve", "reopen"]

    def has_delete_permission(self, request: HttpRequest, obj: Battle | None = None) -> bool:
        """No delete of a concluded battle: the conclusion's effects on ships, treasury and
        intel outlive the row; only a reopen puts them back. Also refuses a cascade (a
        campaign's delete) that would take one."""
        if obj is not None and obj.status == Battle.Status.CONCLUDED:
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest) -> dict:
        actions = super().get_actions(request)
        if "delete_selected" in actions:
            actions["delete_selected"] = (
                BattleAdmin.delete_unconcluded,
                "delete_selected",
                actions["delete_selected"][2],
            )
        return actions

    def delete_unconcluded(self, request: HttpRequest, queryset: QuerySet):
        """Django's bulk delete on the selected battles that are not concluded; the concluded
        ones are named and left alone."""
        concluded = queryset.filter(status=Battle.Status.CONCLUDED)
        if concluded.exists():
            names = ", ".join(str(b) for b in concluded.order_by("pk"))
            self.message_user(
                request,
                _("Not deleted, concluded (reopen them first): %(names)s") % {"names": names},
                messages.ERROR,
            )
        rest = queryset.exclude(status=Battle.Status.CONCLUDED)
        if not rest.exists():
            return None
        return delete_selected(self, request, rest)

    @admin.action(description=_("Resolve the selected draft battles (dice seed kept)"))
    def resolve(self, request: HttpRequest, queryset: QuerySet) -> None:
        _each(
            self,
            request,
            queryset,
            lambda b: battle_resolve(battle=b, seed=b.seed, user=request.user),
            _("%(n)s battle(s) resolved."),
        )

    @admin.action(description=_("Reopen the selected concluded battles"))
    def reopen(self, request: HttpRequest, queryset: QuerySet) -> None:
        _each(
            self,
            request,
            queryset,
            lambda b: battle_reopen(battle=b, user=request.user, reason="reopened in the admin"),
            _("%(n)s battle(s) reopened."),
        )

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
    """The dice log: read-only entirely. It keeps no history, and a battle's replay, map
    and report are read from it; only concluding or reopening the battle writes it."""

    list_display = ("battle", "sequence", "game_turn", "phase", "kind", "summary")
    list_filter = ("battle", "kind")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


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
    """Record entries: their status changes only through the actions (confirming the last
    side's entry concludes the battle, which a status edit would not)."""

    list_display = ("battle", "side", "status", "submitted_by", "submitted_at", "confirmed_by")
    list_filter = ("status",)
    readonly_fields = ("status", "submitted_by", "confirmed_by", "confirmed_at")
    actions = ["confirm", "reject"]

    @admin.action(description=_("Confirm the selected entries"))
    def confirm(self, request: HttpRequest, queryset: QuerySet) -> None:
        _each(
            self,
            request,
            queryset,
            lambda e: record_confirm(entry=e, user=request.user),
            _("%(n)s entry(ies) confirmed."),
        )

    @admin.action(description=_("Reject the selected entries"))
    def reject(self, request: HttpRequest, queryset: QuerySet) -> None:
        _each(
            self,
            request,
            queryset,
            lambda e: record_reject(entry=e, user=request.user, reason="rejected in the admin"),
            _("%(n)s entry(ies) rejected."),
        )


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
