"""Staff views of turns, repair orders, constructions and the ledger (read-mostly: the
organisers act through the pages and the API, which go through the services).

A turn's status is read-only here: closing and reopening a turn run the services (admin
actions below), which carry out the orders, credit income and keep what reopening must
undo; an edit of the status alone would do none of that.
"""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from campaign.core.refusals import Refused
from campaign.turns.closing import campaign_turn_close, campaign_turn_reopen
from campaign.turns.errors import TurnActionError
from campaign.turns.models import CampaignTurn, Construction, LedgerEntry, RepairOrder


@admin.register(CampaignTurn)
class CampaignTurnAdmin(admin.ModelAdmin):
    list_display = ("campaign", "number", "status", "deadline", "closed_at")
    list_filter = ("campaign", "status")
    readonly_fields = ("status", "closed_at", "summary")
    actions = ["close", "reopen"]

    def _run(self, request: HttpRequest, turns: QuerySet, act, done: str) -> None:
        for turn in turns.select_related("campaign"):
            try:
                act(turn)
            except (TurnActionError, Refused) as exc:
                self.message_user(request, f"{turn}: {exc}", messages.ERROR)
            else:
                self.message_user(request, done % {"turn": turn}, messages.SUCCESS)

    @admin.action(description=_("Close the selected open turns"))
    def close(self, request: HttpRequest, queryset: QuerySet) -> None:
        def act(turn: CampaignTurn) -> None:
            if turn.status != CampaignTurn.Status.OPEN:
                raise TurnActionError(_("this turn is not open"))
            campaign_turn_close(campaign=turn.campaign, user=request.user)

        self._run(request, queryset, act, _("%(turn)s closed."))

    @admin.action(description=_("Reopen the selected turns (each its campaign's last closed)"))
    def reopen(self, request: HttpRequest, queryset: QuerySet) -> None:
        def act(turn: CampaignTurn) -> None:
            last = (
                turn.campaign.turns.filter(status=CampaignTurn.Status.CLOSED)
                .order_by("-number")
                .first()
            )
            if last is None or last.pk != turn.pk:
                raise TurnActionError(_("only the campaign's last closed turn reopens"))
            campaign_turn_reopen(campaign=turn.campaign, user=request.user, turn=turn.number)

        self._run(request, queryset, act, _("%(turn)s reopened."))


@admin.register(RepairOrder)
class RepairOrderAdmin(admin.ModelAdmin):
    list_display = ("ship", "yard", "campaign", "status", "eta_turn", "cost", "refunded")
    list_filter = ("campaign", "status", "yard")
    raw_id_fields = ("ship",)

    def save_model(self, request, obj: RepairOrder, form, change: bool) -> None:
        """Save; an ETA note edited here is the staff's own words, not the stored message."""
        if "eta_note" in form.changed_data:
            obj.eta_note_message = {}
        super().save_model(request, obj, form, change)


@admin.register(Construction)
class ConstructionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "faction", "yard", "fleet", "status", "turns_left", "cost")
    list_filter = ("campaign", "status")


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = (
        "campaign",
        "faction",
        "turn",
        "kind",
        "resources",
        "technology",
        "reason",
        "user",
        "created_at",
    )
    list_filter = ("campaign", "faction", "kind")

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # every credit and debit stays as written; adjust with a new entry

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
