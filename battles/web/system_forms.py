"""Forms of the other game systems' helpers and of recording their battles: they check
types and ranges and name the field; the rules packages check the rest."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from battles.models import Participant
from battles.models.other_games import SystemUnit
from battles.services.other_games import critical_choices
from battles.systems import sf_boarding, sf_tokens
from battles.systems.games import DEFAULT_SYSTEM, SYSTEMS
from battles.templatetags.game_systems import system_name

TIER_CHOICES = [(t, t) for t in ("1/4", "1/3", "1/2", *map(str, range(1, 21)))]
POST_LABELS = {
    "pilot": _("pilot"),
    "gunner": _("gunner"),
    "science": _("science officer"),
    "engineer": _("engineer"),
}
TRAINING_LABELS = {
    "none": _("untrained"),
    "competent": _("competent (+2)"),
    "specialised": _("specialised (+4)"),
    "elite": _("elite (+6)"),
}


class TrackerShipForm(forms.Form):
    """A GM ship joining the token tracker."""

    name = forms.CharField(label=_("Ship"), max_length=80)
    tier = forms.ChoiceField(label=_("Tier"), choices=TIER_CHOICES, initial="1")
    pc_tier = forms.ChoiceField(label=_("PC ship tier"), choices=TIER_CHOICES, initial="1")
    crew = forms.IntegerField(
        label=_("Crew"), min_value=1, max_value=sf_tokens.pool.MAX_CREW, initial=6
    )
    posts = forms.MultipleChoiceField(
        label=_("Crewed posts"),
        choices=[(p, POST_LABELS[p]) for p in sf_tokens.POSTS],
        initial=list(sf_tokens.POSTS),
        widget=forms.CheckboxSelectMultiple,
    )
    piloting = forms.IntegerField(label=_("Piloting bonus"), min_value=-50, max_value=50, initial=0)
    gunnery = forms.IntegerField(label=_("Gunnery bonus"), min_value=-50, max_value=50, initial=0)
    special_gunnery = forms.IntegerField(
        label=_("Special gunnery bonus"), min_value=-50, max_value=50, initial=0
    )


class BoardingForm(forms.Form):
    """A boarding party against a ship (seed 003)."""

    attacker_crew = forms.IntegerField(
        label=_("Attacking ship's crew"), min_value=1, max_value=100_000, initial=20
    )
    party_size = forms.IntegerField(
        label=_("Party size"), min_value=1, max_value=100_000, initial=4
    )
    party_tier = forms.ChoiceField(label=_("Party tier"), choices=TIER_CHOICES, initial="1")
    party_training = forms.ChoiceField(
        label=_("Party training"), choices=list(TRAINING_LABELS.items()), initial="none"
    )
    officer_bonus = forms.IntegerField(
        label=_("Leading officer's modifier"), min_value=0, max_value=10, initial=0
    )
    pathogen = forms.BooleanField(label=_("Pathogen party"), required=False)
    pathogen_weakened = forms.BooleanField(label=_("Pathogen weakened (−4)"), required=False)
    target_crew = forms.IntegerField(
        label=_("Target ship's crew"), min_value=1, max_value=100_000, initial=20
    )
    ship_tier = forms.ChoiceField(label=_("Target ship tier"), choices=TIER_CHOICES, initial="1")
    ship_training = forms.ChoiceField(
        label=_("Target crew training"), choices=list(TRAINING_LABELS.items()), initial="none"
    )
    antipersonnel_level = forms.IntegerField(
        label=_("Antipersonnel weapon level"), min_value=0, max_value=20, initial=0
    )
    heavy_antipersonnel_level = forms.IntegerField(
        label=_("Heavy antipersonnel weapon level"), min_value=0, max_value=20, initial=0
    )
    biometric_locks = forms.BooleanField(label=_("Biometric locks"), required=False)
    countermeasures = forms.IntegerField(
        label=_("Computer countermeasures"), min_value=0, max_value=20, initial=0
    )
    first_attack = forms.BooleanField(
        label=_("First boarding attack"), required=False, initial=True
    )
    repel_bonus = forms.IntegerField(
        label=_("Repelling officer's bonus"), min_value=0, max_value=10, initial=0
    )
    seed = forms.IntegerField(label=_("Dice seed"), min_value=0, max_value=2**62, required=False)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            sf_boarding.Party.build(
                data["party_size"],
                data["party_tier"],
                data["party_training"],
                attacker_crew=None if data["pathogen"] else data["attacker_crew"],
            )
        except sf_boarding.PartyTooLarge as exc:
            self.add_error("party_size", str(exc))
        return data


class AttackOddsForm(forms.Form):
    """A Star Wars Starship Battles attack (seed 002)."""

    attack = forms.IntegerField(label=_("Attack bonus"), min_value=-50, max_value=100, initial=8)
    defence = forms.IntegerField(label=_("Target defence"), min_value=0, max_value=100, initial=14)
    damage = forms.IntegerField(label=_("Damage"), min_value=0, max_value=1000, initial=10)
    range_squares = forms.IntegerField(
        label=_("Range (squares)"), min_value=0, max_value=60, initial=6
    )
    weapon = forms.ChoiceField(
        label=_("Weapon"),
        choices=[
            ("standard", _("standard (6 squares)")),
            ("turbolaser", _("turbolaser (9 squares)")),
            ("torpedo", _("torpedo (3 squares)")),
            ("missile", _("missile (3 squares)")),
        ],
    )
    screen = forms.IntegerField(
        label=_("Screen points on that facing"), min_value=0, max_value=100, initial=0
    )
    modifier = forms.IntegerField(
        label=_("Other modifiers"), min_value=-50, max_value=50, initial=0
    )
    target_is_starfighter = forms.BooleanField(label=_("Target is a starfighter"), required=False)


class ShieldOddsForm(forms.Form):
    """Shots against a base with energy shields (seed 004)."""

    shields = forms.IntegerField(label=_("Energy shields"), min_value=0, max_value=20, initial=2)
    shots = forms.IntegerField(label=_("Shots"), min_value=0, max_value=300, initial=3)
    to_hit = forms.IntegerField(label=_("To hit (d6 +)"), min_value=1, max_value=12, initial=4)
    ap = forms.IntegerField(label=_("Armour piercing (AP)"), min_value=-6, max_value=6, initial=1)


OTHER_SYSTEMS = [(s.id, s.name) for s in SYSTEMS.values() if s.id != DEFAULT_SYSTEM]


class OtherBattleForm(forms.Form):
    """A battle of another game system, recorded from the table."""

    name = forms.CharField(label=_("Battle"), max_length=200)
    game_system = forms.ChoiceField(label=_("Game system"), choices=OTHER_SYSTEMS)
    date = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    campaign_turn = forms.IntegerField(label=_("Campaign turn"), min_value=0, required=False)
    location = forms.CharField(label=_("Location"), max_length=200, required=False)
    side_a = forms.ModelChoiceField(label=_("Side A"), queryset=None)
    side_b = forms.ModelChoiceField(label=_("Side B"), queryset=None)
    winner = forms.ChoiceField(
        label=_("Winner"),
        choices=[("a", _("Side A")), ("b", _("Side B")), ("", _("Draw"))],
        required=False,
    )
    outcome = forms.CharField(label=_("Outcome"), required=False, max_length=2000)
    narrative = forms.CharField(
        label=_("Narrative (Markdown)"), required=False, widget=forms.Textarea(attrs={"rows": 5})
    )

    def __init__(self, *args, factions=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side_a"].queryset = factions
        self.fields["side_b"].queryset = factions
        # The systems' names in the reader's language (registry names, not gettext).
        self.fields["game_system"].choices = [(s, system_name(s)) for s, _label in OTHER_SYSTEMS]

    def clean(self):
        data = super().clean()
        if data.get("side_a") and data.get("side_a") == data.get("side_b"):
            self.add_error("side_b", _("Two different factions fight a battle."))
        return data


class UnitResultForm(forms.Form):
    """One unit's result; a blank row is skipped. A roster unit gives its name and kind."""

    side = forms.ChoiceField(label=_("Side"), choices=[("a", _("A")), ("b", _("B"))])
    unit = forms.ModelChoiceField(label=_("Roster unit"), queryset=None, required=False)
    name = forms.CharField(label=_("Unit"), max_length=120, required=False)
    kind = forms.CharField(label=_("Class or type"), max_length=60, required=False)
    fate = forms.ChoiceField(label=_("Fate"), choices=Participant.Fate.choices, initial="unharmed")
    hull_lost = forms.IntegerField(
        label=_("Hull points lost"), min_value=0, max_value=100_000, initial=0
    )
    critical_states = forms.CharField(
        label=_("Critical states (comma-separated)"), max_length=600, required=False
    )
    notes = forms.CharField(label=_("Notes"), max_length=500, required=False)

    def __init__(self, *args, roster=None, game_system: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"] = RosterUnitField(
            label=_("Roster unit"),
            queryset=roster if roster is not None else SystemUnit.objects.none(),
            required=False,
        )
        # A system with a list of critical states offers it; the others (Epic) keep
        # free labels.
        states = critical_choices(game_system) if game_system else []
        if states:
            self.fields["critical_states"] = forms.MultipleChoiceField(
                label=_("Critical states"),
                choices=[(s, s) for s in states],
                widget=forms.SelectMultiple(attrs={"size": min(len(states), 6)}),
                required=False,
            )

    def critical_text(self) -> str:
        """The critical states chosen or typed, as ``parse_criticals`` reads them."""
        value = self.cleaned_data.get("critical_states") or ""
        return ", ".join(value) if isinstance(value, list) else value


class RosterUnitField(forms.ModelChoiceField):
    def label_from_instance(self, obj: SystemUnit) -> str:
        kind = f" ({obj.kind})" if obj.kind else ""
        return f"{obj.name}{kind} — {obj.faction.name}"


UnitResultFormSet = forms.formset_factory(UnitResultForm, extra=4, max_num=60, validate_max=True)
