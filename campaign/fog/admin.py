"""Staff views of the fog of war's rows (read-only: sightings are written by the turn
close, reveals by ``campaign.fog.reveals``)."""

from django.contrib import admin

from campaign.fog.models import Reveal, Sighting


@admin.register(Sighting)
class SightingAdmin(admin.ModelAdmin):
    list_display = ["campaign", "turn", "observer", "fleet", "system", "link", "blips", "how"]
    list_filter = ["campaign", "how"]
    list_select_related = ["campaign", "observer", "fleet", "system", "link__a", "link__b"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Reveal)
class RevealAdmin(admin.ModelAdmin):
    list_display = ["campaign", "fleet", "faction", "revealed_by", "revealed_at", "revoked_at"]
    list_filter = ["campaign"]
    list_select_related = ["campaign", "fleet", "faction", "revealed_by"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
