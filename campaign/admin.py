from django.contrib import admin

from .models import Campaign, Intel, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "current_turn")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("factions",)
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "campaign", "role", "faction")
    list_filter = ("campaign", "role")


@admin.register(Intel)
class IntelAdmin(admin.ModelAdmin):
    list_display = ("faction", "ship_class", "campaign", "first_battle", "created_at")
    list_filter = ("campaign", "faction")
    raw_id_fields = ("first_battle",)
