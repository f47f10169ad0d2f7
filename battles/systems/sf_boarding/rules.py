"""Starfinder boarding: party cap, boarding attack against boarding resistance (RA), the
result bands, neutralised members, recovery, tactical CR.

Source: seed 003; the other-systems restatement §C with reading
O-3 (size bands are lower-inclusive). Readings of this module (``battles/systems/readings.md``):

- H-6 "succeeds" is meets-or-beats (attack ≥ RA), Starfinder's convention; "beats by 5"
  is attack ≥ RA + 5, "fails by 5" attack ≤ RA − 5, "fails by 10" attack ≤ RA − 10. With the
  plain failure (by 1–4, no effect) the seed's four stated results make five bands.
- H-7 counts of people round down (Starfinder's rule): the party cap ⌊20 % crew⌋, a third
  of the party, 10 % of the crew, recovery; the security total rounds up (seed).
- H-8 combined parties of different tiers use the average tier rounded down, like training.
- H-9 the critical system is rolled on Starfinder's d% critical table (life support 1–10,
  sensors 11–30, weapons 31–60, engines 61–80, power core 81–100); the seed says "un système
  aléatoire".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from battles.rules.dice import Dice
from battles.systems.sf_boarding.errors import BadBoardingInput, BoardingError, PartyTooLarge

__all__ = [
    "BANDS",
    "MAX_CREW",
    "TRAINING",
    "BoardingResult",
    "Party",
    "band_for",
    "boarding_allowed",
    "repel_bonus",
    "band_odds",
    "boarding_attack_modifier",
    "boarding_resistance",
    "combine_parties",
    "life_science_dc",
    "max_party_size",
    "pathogen_party",
    "recovered",
    "resolve_boarding",
    "security_modifier",
    "size_modifier",
    "tactical_cr",
]

MAX_CREW = 100_000
MAX_TIER = 20
#: Training modifier (seed, "Modificateur de formation"); "none" is an untrained crew.
TRAINING: dict[str, int] = {"none": 0, "competent": 2, "specialised": 4, "elite": 6}

#: Result bands, worst first (id, lowest margin attack − RA in the band or None).
BANDS: tuple[str, ...] = (
    "wiped-out",
    "repelled-with-losses",
    "repelled",
    "success",
    "overwhelming",
)

_CRIT_TABLE = (
    (10, "life-support"),
    (30, "sensors"),
    (60, "weapons"),
    (80, "engines"),
    (100, "power-core"),
)


def _int(value: object, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadBoardingInput(f"{field}: {value!r} is not a whole number ({lo}–{hi})")
    if not lo <= value <= hi:
        raise BadBoardingInput(f"{field}: {value} is out of range ({lo}–{hi})")
    return value


def _tier(value: object, field: str) -> int:
    """A tier or level rounded down (seed: "arrondi à l'entier inférieur"); 1/4 … 20."""
    try:
        if isinstance(value, bool) or not isinstance(value, int | str | Fraction | float):
            raise TypeError
        tier = Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError, TypeError):
        raise BadBoardingInput(f"{field}: {value!r} is not a tier (e.g. 1/2, 3, 12)") from None
    if not 0 < tier <= MAX_TIER:
        raise BadBoardingInput(f"{field}: {value} is out of range (1/4–{MAX_TIER})")
    return math.floor(tier)


def _training(value: object, field: str) -> int:
    if not isinstance(value, str) or value not in TRAINING:
        raise BadBoardingInput(f"{field}: {value!r} is not one of {', '.join(TRAINING)}")
    return TRAINING[value]  # type: ignore[index]


def max_party_size(attacker_crew: object) -> int:
    """Largest party a ship may launch: max(⌊20 % of its crew⌋, 4) (seed, H-7)."""
    crew = _int(attacker_crew, "attacker_crew", 1, MAX_CREW)
    return max(crew // 5, 4)


def size_modifier(party_size: object, target_crew: object) -> int:
    """Size modifier of a party against the target's crew (seed table, O-3 lower-inclusive):
    < 10 % −8; 10–20 % −4; 20–50 % +0; 50–80 % +2; 80–100 % +4; more than the crew +8."""
    size = _int(party_size, "party_size", 1, MAX_CREW)
    crew = _int(target_crew, "target_crew", 1, MAX_CREW)
    ratio = Fraction(size, crew)
    if ratio > 1:
        return 8
    for bound, mod in (
        (Fraction(8, 10), 4),
        (Fraction(1, 2), 2),
        (Fraction(1, 5), 0),
        (Fraction(1, 10), -4),
    ):
        if ratio >= bound:
            return mod
    return -8


def security_modifier(
    *,
    antipersonnel_level: object = 0,
    heavy_antipersonnel_level: object = 0,
    biometric_locks: object = False,
    countermeasures: object = 0,
    first_attack: object = True,
) -> int:
    """The ship's security modifier, rounded up (seed, "Modificateur de sécurité"):
    antipersonnel weapon ⅓ of its level, heavy one 2 + ⅓ of its level (only against the
    first boarding attack, ``first_attack``), biometric locks +1, computer countermeasures
    ⅓ of their number. Levels 0 (none) … 20; countermeasures 0 … 20."""
    ap = _int(antipersonnel_level, "antipersonnel_level", 0, 20)
    heavy = _int(heavy_antipersonnel_level, "heavy_antipersonnel_level", 0, 20)
    cm = _int(countermeasures, "countermeasures", 0, 20)
    if not isinstance(biometric_locks, bool) or not isinstance(first_attack, bool):
        raise BadBoardingInput("biometric_locks and first_attack are true or false")
    total = Fraction(cm, 3) + (1 if biometric_locks else 0)
    if first_attack:
        total += Fraction(ap, 3) + (2 + Fraction(heavy, 3) if heavy else 0)
    return math.ceil(total)


@dataclass(frozen=True, slots=True)
class Party:
    """A boarding party: ``size`` combatants, ``tier`` (rounded down), ``training`` id;
    ``pathogen`` parties have size modifier +0 (seed, "Pathogène injecté").

    ``combined_training`` is the training modifier of parties acting together: the mean of
    theirs, rounded down, which need not be a named level (competent +2 and specialised +4
    give +3); ``training`` then names the nearest level below it, for display only."""

    size: int
    tier: int
    training: str = "none"
    pathogen: bool = False
    combined_training: int | None = None

    @property
    def training_modifier(self) -> int:
        """The training modifier the boarding attack adds (seed, "Modificateur de
        formation"; the mean for combined parties)."""
        if self.combined_training is not None:
            return self.combined_training
        return TRAINING[self.training]

    @classmethod
    def build(
        cls,
        size: object,
        tier: object,
        training: object = "none",
        *,
        attacker_crew: object = None,
        cap: object = None,
    ) -> Party:
        """A checked party. With ``attacker_crew`` its size may not exceed
        :func:`max_party_size` (or ``cap`` for breaching pods and other exceptions, seed):
        :class:`PartyTooLarge` otherwise."""
        _training(training, "training")
        size = _int(size, "party_size", 1, MAX_CREW)
        if cap is not None:
            limit = _int(cap, "cap", 1, MAX_CREW)
        elif attacker_crew is not None:
            limit = max_party_size(attacker_crew)
        else:
            limit = MAX_CREW
        if size > limit:
            raise PartyTooLarge(
                f"party_size: {size} is more than the cap of {limit} "
                "(max(20 % of the attacker's crew, 4))"
            )
        return cls(size, _tier(tier, "party_tier"), str(training))


def pathogen_party(creature_level: object, size: object = 1) -> Party:
    """A pathogen's "party": tier = the creature's level, size modifier +0 (seed)."""
    return Party(
        _int(size, "party_size", 1, MAX_CREW), _tier(creature_level, "creature_level"), "none", True
    )


def life_science_dc(creature_level: object) -> int:
    """DC of the defending officer's Life Science check against a pathogen:
    10 + 1.5 × level, rounded down (seed; H-7)."""
    level = _tier(creature_level, "creature_level")
    return 10 + math.floor(Fraction(3, 2) * level)


def combine_parties(parties: Sequence[Party]) -> Party:
    """Allied parties joining forces (seed, "Multiples équipes d'abordage"): sizes add,
    training is the mean of their training modifiers rounded down (the seed's arithmetic,
    not the nearest named level: competent +2 with specialised +4 act at +3), tier the
    average rounded down (H-8)."""
    if not parties:
        raise BadBoardingInput("parties: give at least one party")
    if len(parties) > 20:
        raise BadBoardingInput("parties: at most 20 parties")
    size = sum(p.size for p in parties)
    training_mod = sum(p.training_modifier for p in parties) // len(parties)
    training = max((t for t, m in TRAINING.items() if m <= training_mod), key=TRAINING.__getitem__)
    tier = sum(p.tier for p in parties) // len(parties)
    return Party(size, tier, training, all(p.pathogen for p in parties), training_mod)


def boarding_attack_modifier(
    party: Party, target_crew: object, *, officer_bonus: object = 0, pathogen_weakened: bool = False
) -> int:
    """Modifier of the boarding attack: party tier + size modifier (+0 for a pathogen) +
    training + the leading officer's key ability modifier (0–10) − 4 for a pathogen party
    weakened by a Life Science check (seed)."""
    bonus = _int(officer_bonus, "officer_bonus", 0, 10)
    size = 0 if party.pathogen else size_modifier(party.size, target_crew)
    _int(target_crew, "target_crew", 1, MAX_CREW)
    penalty = -4 if party.pathogen and pathogen_weakened else 0
    return party.tier + size + party.training_modifier + bonus + penalty


def boarding_resistance(
    ship_tier: object, *, security: object = 0, training: object = "none", repel_bonus: object = 0
) -> int:
    """RA = ship tier (rounded down) + security modifier + training modifier + a repelling
    officer's bonus (their modifier against one attack, half of it rounded down against
    all: give the value that applies)."""
    return (
        _tier(ship_tier, "ship_tier")
        + _int(security, "security", 0, 30)
        + _training(training, "ship_training")
        + _int(repel_bonus, "repel_bonus", 0, 10)
    )


def repel_bonus(officer_modifier: object, *, against_all: bool) -> int:
    """A repelling officer's bonus to RA: their key ability modifier against one boarding
    attack this round, or half of it (rounded down) against all (seed, free crew action)."""
    mod = _int(officer_modifier, "officer_modifier", 0, 10)
    return mod // 2 if against_all else mod


BOARDING_METHODS = ("grappling", "ram", "breaching-pod", "pathogen")


def boarding_allowed(
    method: object,
    *,
    adjacent: bool = False,
    attack_hit: bool = False,
    hull_damaged: bool = False,
    quadrant_shields: object = 0,
) -> bool:
    """May a party board this way? (seed, the four ways in): a grappling weapon needs to
    start the gunnery phase adjacent and hit (no damage); a ram must damage hull points;
    a breaching pod cannot breach a quadrant that has shield points; a pathogen is
    injected by its creature."""
    shields = _int(quadrant_shields, "quadrant_shields", 0, 10_000)
    if method == "grappling":
        return bool(adjacent and attack_hit)
    if method == "ram":
        return bool(hull_damaged)
    if method == "breaching-pod":
        return shields == 0
    if method == "pathogen":
        return True
    raise BadBoardingInput(f"method: {method!r} is not one of {', '.join(BOARDING_METHODS)}")


def band_for(margin: int) -> str:
    """The result band of ``margin`` = boarding attack − RA (H-6)."""
    if margin <= -10:
        return "wiped-out"
    if margin <= -5:
        return "repelled-with-losses"
    if margin < 0:
        return "repelled"
    return "success" if margin < 5 else "overwhelming"


def band_odds(attack_modifier: int, resistance: int) -> dict[str, Fraction]:
    """Exact probability of each band for a d20 boarding attack (every band listed)."""
    attack_modifier = _int(attack_modifier, "attack_modifier", -100, 100)
    resistance = _int(resistance, "resistance", -100, 100)
    out = dict.fromkeys(BANDS, Fraction(0))
    for face in range(1, 21):
        out[band_for(face + attack_modifier - resistance)] += Fraction(1, 20)
    return out


@dataclass(frozen=True, slots=True)
class BoardingResult:
    """One boarding attack, as a record: the die, totals, band, critical system (or ""),
    party members and target crew neutralised."""

    roll: int
    attack: int
    resistance: int
    band: str
    critical_system: str
    party_neutralised: int
    crew_neutralised: int

    @property
    def margin(self) -> int:
        return self.attack - self.resistance


def resolve_boarding(
    dice: Dice,
    party: Party,
    *,
    target_crew: object,
    resistance: object,
    officer_bonus: object = 0,
    pathogen_weakened: bool = False,
    chosen_system: str = "",
) -> BoardingResult:
    """Roll one boarding attack of ``party`` against a ship of ``target_crew`` with RA
    ``resistance`` (start of the engineering phase, seed). Every die goes to ``dice.log``.

    On success a critical system is rolled (H-9) unless a leading officer chose it
    (``chosen_system``); 5+ over RA neutralises ⌊10 %⌋ of the crew; failing by 5+ a third
    of the party (⌊⅓⌋), by 10+ the whole party.
    """
    crew = _int(target_crew, "target_crew", 1, MAX_CREW)
    ra = _int(resistance, "resistance", -100, 100)
    mod = boarding_attack_modifier(
        party, crew, officer_bonus=officer_bonus, pathogen_weakened=pathogen_weakened
    )
    roll = dice.die(20, f"boarding attack ({party.size} boarders)")
    attack = roll + mod
    band = band_for(attack - ra)
    system = ""
    if band in ("success", "overwhelming"):
        if chosen_system:
            if chosen_system not in [s for _, s in _CRIT_TABLE]:
                raise BoardingError(f"chosen_system: {chosen_system!r} is not a ship system")
            system = chosen_system
        else:
            d100 = dice.die(100, "boarding critical system")
            system = next(s for top, s in _CRIT_TABLE if d100 <= top)
    return BoardingResult(
        roll=roll,
        attack=attack,
        resistance=ra,
        band=band,
        critical_system=system,
        party_neutralised={"wiped-out": party.size, "repelled-with-losses": party.size // 3}.get(
            band, 0
        ),
        crew_neutralised=crew // 10 if band == "overwhelming" else 0,
    )


def recovered(neutralised: object, *, defenders: bool = False, infirmary: bool = False) -> int:
    """Neutralised combatants who recover after the combat: half, 75 % for defenders whose
    ship has an infirmary (seed, "À titre indicatif"), rounded down (H-7)."""
    n = _int(neutralised, "neutralised", 0, MAX_CREW)
    return n * 3 // 4 if defenders and infirmary else n // 2


def tactical_cr(
    enemy_ship_tier: object,
    *,
    pcs_boarded: bool,
    attack_modifier: object = None,
    pcs_resistance: object = None,
) -> int:
    """CR of a boarding encounter played tactically: enemy ship tier − 1; when the PCs' ship
    is boarded, +1 if its RA is at most 5 above the attack modifier, −1 if the attack
    modifier is 15 or more below the RA (seed, "Calcul du FP"). At least 0."""
    cr = _tier(enemy_ship_tier, "enemy_ship_tier") - 1
    if pcs_boarded:
        mod = _int(attack_modifier, "attack_modifier", -100, 100)
        ra = _int(pcs_resistance, "pcs_resistance", -100, 100)
        if ra - mod <= 5:
            cr += 1
        elif ra - mod >= 15:
            cr -= 1
    return max(cr, 0)
