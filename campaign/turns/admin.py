"""Staff views of turns, repair orders, constructions and the ledger (read-mostly: the
organisers act through the pages and the API, which go through the services)."""

from django.contrib import admin

from campaign.turns.models import CampaignTurn, Construction, LedgerEntry, RepairOrder


@admin.register(CampaignTurn)
class CampaignTurnAdmin(admin.ModelAdmin):
    list_display = ("campaign", "number", "status", "deadline", "closed_at")
    list_filter = ("campaign", "status")
    readonly_fields = ("summary",)


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
