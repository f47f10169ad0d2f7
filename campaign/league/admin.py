from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from campaign.league.models import Campaign, Intel, Invitation, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "current_turn")
    # The turn services move it (closing and reopening a turn, in the turns' admin).
    readonly_fields = ("current_turn",)
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("factions",)
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(SimpleHistoryAdmin):  # History: who gave or removed a role, when
    list_display = ("user", "campaign", "role", "faction")
    list_filter = ("campaign", "role")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Read-only: invitations are made and revoked on the campaign's members page."""

    list_display = ("campaign", "role", "faction", "email", "created_at", "expires_at")
    list_filter = ("campaign", "role")
    readonly_fields = [f.name for f in Invitation._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Intel)
class IntelAdmin(admin.ModelAdmin):
    list_display = ("faction", "ship_class", "campaign", "first_battle", "created_at")
    list_filter = ("campaign", "faction")
    raw_id_fields = ("first_battle",)
