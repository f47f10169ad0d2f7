"""Forms of the battle pages: setting a battle up, recording it from the table, re-running
the auto-resolve with a reason, reopening. Thin: the rules are checked by the services."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from battles.models import Battle, Participant
from battles.services import MAX_TURNS_LIMIT, eligible_light_units, eligible_ships, ship_system_ids
from campaign.core import limits
from campaign.league.models import Campaign
from campaign.starmap.models import StarSystem
from factions.models import Faction, LightUnitGroup, Ship, Territory
from factions.ship_names import ship_name, told_apart
from factions.ssd.draw import system_labels


def ship_label(ship: Ship, *, distinguish: bool = False) -> str:
    """``Garuda (Garuda, fleet X) — hull 3/20 lost, armour 1 lost, 2 systems lost``;
    ``distinguish``: the name also carries the ship's number and squadron (``Tyr #12
    (2nd squadron) (Tyr)``), for a list where another ship has the same name."""
    name = told_apart(ship) if distinguish else ship_name(ship)
    bits = []
    if ship.hull_lost:
        bits.append(
            _("hull %(lost)s/%(max)s lost")
            % {"lost": ship.hull_lost, "max": ship.ship_class.hull_boxes}
        )
    if ship.armour_lost:
        bits.append(_("armour %(n)s lost") % {"n": ship.armour_lost})
    if ship.systems_lost:
        n = len(ship.systems_lost)
        bits.append(ngettext("%(n)s system lost", "%(n)s systems lost", n) % {"n": n})
    state = " — " + ", ".join(str(b) for b in bits) if bits else ""
    return f"{name} ({ship.ship_class.name}){state}"


def system_choice_label(system_id: str, labels: dict[str, str]) -> str:
    """A system as the record form and page name it: its SSD label then its id ("fire
    control 1 (fc-1)"), or the id alone when the SSD has no other word for it."""
    label = labels.get(system_id)
    return f"{label} ({system_id})" if label and label != system_id else system_id


def group_label(group: LightUnitGroup) -> str:
    """``Nith (fighters, 6/6) — based at Petra IV`` or ``… — aboard Kajna``."""
    where = ""
    if group.carrier_id:
        where = " — " + str(_("aboard %(ship)s") % {"ship": group.carrier})
    elif group.territory_id or group.location:
        where = " — " + str(_("based at %(place)s") % {"place": group.territory or group.location})
    return f"{group.name} ({group.get_kind_display()}, {group.strength}/{group.size}){where}"


class ShipChoiceField(forms.ModelMultipleChoiceField):
    #: Names borne by more than one offered ship: those ships' labels tell them apart.
    shared_names: frozenset[str] = frozenset()

    def label_from_instance(self, obj: Ship) -> str:
        return ship_label(obj, distinguish=ship_name(obj) in self.shared_names)


class GroupChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: LightUnitGroup) -> str:
        return group_label(obj)


class BattleSetupForm(forms.Form):
    """A new battle: what, when, where, the two sides and the units each fields."""

    name = forms.CharField(label=_("Name"), max_length=200)
    campaign_turn = forms.IntegerField(
        label=_("Campaign turn"), min_value=1, max_value=limits.NUMBER_MAX
    )
    territory = forms.ModelChoiceField(
        label=_("Location (territory)"), queryset=Territory.objects.none(), required=False
    )
    system = forms.ModelChoiceField(
        label=_("Star system"),
        queryset=StarSystem.objects.none(),
        required=False,
        help_text=_("Once a system is chosen, only the ships of the fleets there are offered."),
    )
    scenario = forms.CharField(
        label=_("Scenario (Markdown)"), widget=forms.Textarea(attrs={"rows": 3}), required=False
    )
    faction_a = forms.ModelChoiceField(label=_("First side"), queryset=Faction.objects.none())
    primary_a = forms.CharField(label=_("First side: primary objective"), required=False)
    secondary_a = forms.CharField(label=_("First side: secondary objectives"), required=False)
    faction_b = forms.ModelChoiceField(label=_("Second side"), queryset=Faction.objects.none())
    primary_b = forms.CharField(label=_("Second side: primary objective"), required=False)
    secondary_b = forms.CharField(label=_("Second side: secondary objectives"), required=False)
    ships = ShipChoiceField(
        label=_("Ships"),
        queryset=Ship.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    #: Where the set-up leads: the auto-resolve preview, the record form, the turn page.
    MODES = (
        (Battle.Mode.RESOLVED, _("Auto-resolve: preview and conclude")),
        (Battle.Mode.RECORDED, _("Record the game played on the table")),
        (Battle.Mode.TURNS, _("Fight it turn by turn")),
    )
    mode = forms.ChoiceField(
        label=_("How it will be fought"),
        choices=MODES,
        initial=Battle.Mode.RESOLVED,
        widget=forms.RadioSelect,
        required=False,
    )
    light_units = GroupChoiceField(
        label=_("Light units and defences (fighters based at stations, batteries)"),
        help_text=_("The squadrons a chosen ship carries come with it."),
        queryset=LightUnitGroup.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        factions = campaign.factions.order_by("name")
        self.fields["faction_a"].queryset = factions
        self.fields["faction_b"].queryset = factions
        self.fields["territory"].queryset = Territory.objects.filter(
            faction__in=campaign.factions.all()
        ).order_by("name")
        self.fields["system"].queryset = StarSystem.objects.filter(campaign=campaign).order_by(
            "name"
        )
        ships = eligible_ships(campaign=campaign, system=self.chosen_system())
        groups = eligible_light_units(campaign=campaign)
        # Once the sides are chosen only their units are offered (and accepted).
        sides = self.chosen_sides()
        if sides:
            ships = ships.filter(fleet__faction__in=sides)
            groups = groups.filter(faction__in=sides)
        # The labels read the class's name and hull, never its design: a JSON document a
        # ship: the sample campaign's 111 ships' choices took 24 ms of CPU with it, 8 without.
        ships = ships.defer("ship_class__design")
        self.fields["ships"].queryset = ships
        self.fields["ships"].shared_names = _shared_names(ships)
        self.fields["light_units"].queryset = groups
        self.fields["campaign_turn"].initial = campaign.current_turn

    def chosen_system(self) -> StarSystem | None:
        """The campaign's star system chosen so far (submitted data, else initial), or
        None (none chosen, unknown or malformed)."""
        raw = (
            self.data.get(self.add_prefix("system"))
            if self.is_bound
            else self.initial.get("system")
        )
        raw = str(getattr(raw, "pk", raw) or "")
        if not raw.isdigit() or len(raw) >= 19:
            return None
        return StarSystem.objects.filter(campaign=self.campaign, pk=int(raw)).first()

    def chosen_sides(self) -> list[int]:
        """The ids of the campaign's factions chosen as sides so far (from the submitted
        data, else the initial values), for filtering the units offered; unknown or
        malformed ids are left out."""
        if self.is_bound:
            raw = [self.data.get(self.add_prefix(f"faction_{k}")) for k in ("a", "b")]
        else:
            raw = [self.initial.get(f"faction_{k}") for k in ("a", "b")]
        raw = [str(v or "") for v in raw]
        ids = {int(v) for v in raw if v.isdigit() and len(v) < 19}
        if not ids:
            return []
        return list(self.campaign.factions.filter(pk__in=ids).values_list("pk", flat=True))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        a, b = data.get("faction_a"), data.get("faction_b")
        if a and b and a == b:
            self.add_error("faction_b", _("The two sides must be different factions."))
        sides = {f.pk for f in (a, b) if f}
        for ship in data.get("ships") or []:
            if ship.fleet.faction_id not in sides:
                self.add_error(
                    "ships",
                    _("%(ship)s: its faction is not one of the two sides.") % {"ship": ship},
                )
        for group in data.get("light_units") or []:
            if group.faction_id not in sides:
                self.add_error(
                    "light_units",
                    _("%(group)s: its faction is not one of the two sides.") % {"group": group},
                )
        return data

    def fleets(self) -> list[tuple[str, list[Any]]]:
        """The ship checkboxes (``BoundWidget``) grouped by faction, fleet (and squadron),
        for the template: ``[("Qatzrin — Home fleet — 2nd squadron", [box, …]), …]``."""
        groups: dict[str, list[Any]] = {}
        for box in self["ships"]:
            ship = box.data["value"].instance  # the choice's own ship: no query again
            key = f"{ship.fleet.faction.name} — {ship.fleet.name}" + (
                f" — {ship.squadron.name}" if ship.squadron else ""
            )
            groups.setdefault(key, []).append(box)
        return list(groups.items())


def _shared_names(ships: Any) -> frozenset[str]:
    """The names (a ship's own, else its class's) more than one of ``ships`` bears."""
    seen: dict[str, int] = {}
    for name, class_name in ships.values_list("name", "ship_class__name"):
        key = name or class_name
        seen[key] = seen.get(key, 0) + 1
    return frozenset(k for k, n in seen.items() if n > 1)


class ParticipantResultForm(forms.Form):
    """One row of the record: what one ship (or light-unit group) lost in the battle."""

    fate = forms.ChoiceField(label=_("Fate"), choices=Participant.Fate.choices)
    hull_lost = forms.IntegerField(label=_("Hull boxes lost"), min_value=0, initial=0)
    armour_lost = forms.IntegerField(label=_("Armour boxes lost"), min_value=0, initial=0)
    crew_lost = forms.IntegerField(
        label=_("Crew factors lost"),
        min_value=0,
        required=False,
        help_text=_("Leave empty: from the hull lost (D-9)."),
    )
    systems_lost = forms.MultipleChoiceField(
        label=_("Systems destroyed"), widget=forms.CheckboxSelectMultiple, required=False
    )
    craft_lost = forms.IntegerField(label=_("Craft lost"), min_value=0, initial=0)
    notes = forms.CharField(label=_("Notes"), required=False, max_length=2000)

    def __init__(self, *args: Any, participant: Participant, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.participant = participant
        if participant.ship_id:
            ship = participant.ship
            self.unit_name = ship_label(ship)
            already = set(ship.systems_lost or [])
            labels = system_labels(ship.ship_class.design or {})
            self.fields["systems_lost"].choices = [
                (s, system_choice_label(s, labels))
                for s in ship_system_ids(ship)
                if s not in already
            ]
            del self.fields["craft_lost"]
        else:
            self.unit_name = group_label(participant.light_units)
            for name in ("hull_lost", "armour_lost", "crew_lost", "systems_lost"):
                del self.fields[name]

    def result(self) -> dict[str, Any]:
        """The entry for ``battles.services.record_submit``."""
        d = self.cleaned_data
        out: dict[str, Any] = {"participant": self.participant.pk, "fate": d["fate"]}
        for name in ("hull_lost", "armour_lost", "craft_lost"):
            if name in self.fields:
                out[name] = d.get(name) or 0
        if "crew_lost" in self.fields and d.get("crew_lost") is not None:
            out["crew_lost"] = d["crew_lost"]
        if "systems_lost" in self.fields:
            out["systems_lost"] = list(d.get("systems_lost") or [])
        if d.get("notes"):
            out["notes"] = d["notes"]
        return out


class BaseRecordFormSet(forms.BaseFormSet):
    """One row a participant; ``participants`` in display order."""

    def __init__(self, *args: Any, participants: list[Participant], **kwargs: Any) -> None:
        self.participants = participants
        super().__init__(*args, **kwargs)

    def total_form_count(self) -> int:
        return len(self.participants)

    def get_form_kwargs(self, index: int) -> dict[str, Any]:
        return {"participant": self.participants[index]}


RecordFormSet = forms.formset_factory(ParticipantResultForm, formset=BaseRecordFormSet, extra=0)


class RecordSummaryForm(forms.Form):
    """The battle-level part of a record: outcome, winner, turns played, narrative."""

    winner = forms.ChoiceField(label=_("Winner"), required=False)
    outcome = forms.CharField(
        label=_("Outcome"), widget=forms.Textarea(attrs={"rows": 2}), required=False
    )
    game_turns = forms.IntegerField(
        label=_("Game turns played"), min_value=0, max_value=MAX_TURNS_LIMIT, required=False
    )
    narrative = forms.CharField(
        label=_("Narrative (Markdown)"),
        widget=forms.Textarea(attrs={"rows": 5}),
        required=False,
        max_length=100_000,
    )

    def __init__(self, *args: Any, battle: Battle, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [("", _("draw / no winner"))] + [
            (s.faction.slug, s.faction.name) for s in battle.sides.select_related("faction")
        ]


class ReasonForm(forms.Form):
    """A written reason (re-running the auto-resolve with another seed, reopening)."""

    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000
    )
