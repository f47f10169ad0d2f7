"""Staff views of the star map (Django admin): systems, links, placements, positions and
move orders. Positions set here bypass ``campaign.starmap.movement.fleet_place``, so the
fleet's ``territory`` is not re-derived: prefer the map page or ``load_sample``."""

from django.contrib import admin

from campaign.starmap.models import FleetPosition, MapMove, StarLink, StarSystem, TerritoryPlacement


@admin.register(StarSystem)
class StarSystemAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "x", "y")
    list_filter = ("campaign",)
    prepopulated_fields = {"slug": ("name",)}


@admin.register(StarLink)
class StarLinkAdmin(admin.ModelAdmin):
    list_display = ("__str__", "campaign", "travel_turns")
    list_filter = ("campaign",)


@admin.register(TerritoryPlacement)
class TerritoryPlacementAdmin(admin.ModelAdmin):
    list_display = ("territory", "system", "campaign")
    list_filter = ("campaign",)


@admin.register(FleetPosition)
class FleetPositionAdmin(admin.ModelAdmin):
    list_display = ("fleet", "campaign", "system", "link", "heading", "arrival_turn")
    list_filter = ("campaign",)


@admin.register(MapMove)
class MapMoveAdmin(admin.ModelAdmin):
    list_display = ("fleet", "campaign", "turn", "origin", "destination", "status")
    list_filter = ("campaign", "status")
