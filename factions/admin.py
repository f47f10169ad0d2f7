from django import forms
from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from factions.designs.schema import DesignInvalid
from factions.models import (
    Commander,
    Faction,
    Fleet,
    LightUnitGroup,
    RenownAward,
    Ship,
    ShipClass,
    Squadron,
    Territory,
)


class TerritoryInline(admin.TabularInline):
    model = Territory
    extra = 0
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ("name", "capital", "ruler")
    search_fields = ("name",)
    prepopulated_fields = {"slug": ("name",)}
    inlines = [TerritoryInline]


@admin.register(Territory)
class TerritoryAdmin(admin.ModelAdmin):
    list_display = ("name", "faction", "kind", "has_shipyard")
    list_filter = ("faction", "kind", "has_shipyard")
    prepopulated_fields = {"slug": ("name",)}


class ShipClassForm(forms.ModelForm):
    """A class edited through its design document: the figures (mass, hull boxes, armour,
    thrust, points) are derived from it on save (``ShipClass.set_design``), never typed."""

    class Meta:
        model = ShipClass
        fields = ["faction", "name", "slug", "type_word", "provisional", "design"]

    def clean(self) -> dict:
        cleaned = super().clean()
        if "design" not in cleaned:
            return cleaned
        # An unchanged design is re-derived, not re-judged: an imported ship kept provisional
        # although a rule check fails stays editable for its name or flags.
        lenient = "design" not in self.changed_data
        try:
            self.instance.set_design(cleaned["design"], lenient=lenient)
        except DesignInvalid as exc:
            self.add_error("design", [f"{e.field}: {e.message}" for e in exc.errors])
        else:
            cleaned["design"] = self.instance.design  # priced when it stated no points
        return cleaned


@admin.register(ShipClass)
class ShipClassAdmin(admin.ModelAdmin):
    form = ShipClassForm
    readonly_fields = ("mass", "hull_boxes", "armour", "thrust", "points")
    list_display = (
        "name",
        "faction",
        "type_word",
        "mass",
        "hull_boxes",
        "armour",
        "thrust",
        "points",
        "provisional",
    )
    list_filter = ("faction", "provisional")
    search_fields = ("name",)
    prepopulated_fields = {"slug": ("name",)}


class SquadronInline(admin.TabularInline):
    model = Squadron
    extra = 0


@admin.register(Fleet)
class FleetAdmin(SimpleHistoryAdmin):
    list_display = ("name", "faction", "hidden")
    list_filter = ("faction", "hidden")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [SquadronInline]


@admin.register(Squadron)
class SquadronAdmin(admin.ModelAdmin):
    list_display = ("name", "fleet")
    list_filter = ("fleet",)


@admin.register(Ship)
class ShipAdmin(SimpleHistoryAdmin):
    list_display = (
        "__str__",
        "ship_class",
        "fleet",
        "squadron",
        "status",
        "hull_lost",
        "armour_lost",
    )
    list_filter = ("fleet", "status")
    list_select_related = ("ship_class", "fleet", "squadron")
    search_fields = ("name",)


@admin.register(LightUnitGroup)
class LightUnitGroupAdmin(SimpleHistoryAdmin):
    list_display = ("name", "kind", "faction", "carrier", "location", "strength", "size")
    list_filter = ("faction", "kind")


class RenownAwardInline(admin.TabularInline):
    """A commander's awards, as battles wrote them (read only: reopen the battle to undo)."""

    model = RenownAward
    extra = 0
    can_delete = False
    fields = ("battle", "kind", "points")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ANN001 - admin API
        return False


@admin.register(Commander)
class CommanderAdmin(SimpleHistoryAdmin):
    list_display = ("name", "faction", "rank", "status", "fleet", "squadron", "ship")
    list_filter = ("faction", "rank", "status")
    search_fields = ("name",)
    raw_id_fields = ("fleet", "squadron", "ship")
    inlines = [RenownAwardInline]
