from django.contrib import admin

from .models import Battle, BattleSide, Event, Participant, Report


class BattleSideInline(admin.StackedInline):
    model = BattleSide
    extra = 0


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "location", "campaign_turn", "mode", "status", "winner")
    list_filter = ("campaign", "status", "mode")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [BattleSideInline]


@admin.register(BattleSide)
class BattleSideAdmin(admin.ModelAdmin):
    list_display = ("battle", "faction", "fleet", "is_winner")


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ("__str__", "side", "fate", "hull_lost", "armour_lost")
    list_filter = ("fate",)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("battle", "sequence", "game_turn", "phase", "kind", "summary")
    list_filter = ("battle", "kind")


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("battle", "format", "version", "rendered_at")
