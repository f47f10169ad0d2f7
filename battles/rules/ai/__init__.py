"""Auto-resolve: simple, documented tactics so two fleets fight a battle with no human input.

The tactics (each a small function in this package's modules:
``plans`` for phase-1 orders, ``fire`` for phase-9 fire, ``kit`` for what is read off a ship,
``battle`` for the turn loop; all deterministic given the state):

- **Deployment** (§1): side A along y = 0 heading 0 (+y), side B 72 mu away along y = 72
  heading 3, ships 8 mu apart in fleet order, starting speed 8 mu.
- **Movement** (§3): each ship steers at the nearest enemy ship, turning as far towards it
  as its turning cap allows, and sets its speed so the gap left after the move is its
  *preferred range*: the upper bound of the first (most dice) band of its heavy weapons,
  the smallest over its weapons (12 mu for beams and pulsers, 6 for torpedoes), never
  slower than 2 mu. Orders always respect ``arcs + |Δspeed| ≤ T``.
- **Withdrawal**: a *crippled* ship — a third of its hull or less left, or nothing left to
  fight with (no working heavy weapon, missile round or squadron aboard) — turns away and
  is ordered out (it leaves at the end of the turn, §2 phase 11).
- **Fire** (§6): after movement, each ship picks targets in priority order — the most
  damaged enemy ship (lowest fraction of hull left) that any of its weapons can reach, ties
  to the one more of its weapons reach, then the nearest — one target per free FC, and
  every weapon that can reach a chosen target fires at the first one it reaches (focus
  fire). Pulsers use the mode with most dice at the range — under D-34 (default) the range
  predicted in phase 1 from the ship's own plan and the target keeping its speed and
  heading, and the pulser then reaches only as far as that mode. Under D-12 (default) a
  ship fires its lances only when no other weapon reaches an enemy ship (a lance fires
  alone). Class-1 weapons left idle fire
  as PD at the enemy squadron attached to the ship (no FC needed). Heavy weapons are aimed
  at ships only: the engine lets beam-family weapons fire at a non-attached light unit for
  one FC each, but the AI keeps its FCs for enemy ships.
- **Light units**: carriers launch as many squadrons as they have launch tubes once an
  enemy is within 60 mu, at the nearest enemy (a squadron rearming after landing waits,
  §9; PD-platform gunboats are launched to escort their own carrier, giving it area
  defence); missile launchers fire at the nearest enemy within 36 mu. Each launch ties one
  FC in phases 1 and 3 (§6), so a ship launches at most as many units as it has working
  FCs; it keeps none back for its guns, since the seed frees those FCs again for phase 9
  (« mais sont libérés après lancement de ces unités »). A carrier calls back its
  own fighter squadrons once flying home is all their endurance still allows: the carrier
  is within their reach (distance − 3 mu ≤ endurance left) and what would be left after
  the flight is less than one endurance point (24 mu, the cost of one more attack). They
  land and rearm instead of leaving the table spent (§2 phase 6, §9). PD and ADAF always
  fire at incoming light units (the turn code does that).
- **Sa'vasku power** (§8, §10, §14): launcher nodules (penetrator, vampire) fire while the
  ship has 1 biomass and 3 PP left per shot (interceptor nodules and spicules are not
  aimed at ships: they defend the ship at the end of phase 9, as PD and ADAF do); the PP
  left are split evenly over the needle nodules that fire, the remainder to the first in
  system order. Under D-34 (default) the needles' PP are written in phase 1: split evenly
  over every working needle nodule after 3 PP are kept for each launcher nodule, spicule
  and interceptor nodule the ship's biomass can pay for.
- **Phalon vapour veil** (§14): on while no enemy is within 48 mu (no fire possible next
  turn), off otherwise so the FCs work.
- **Damage control** (§12): crew go, 3 at a time, to damaged systems in this order: core,
  life support, bridge, fire controls, drive, weapons, anything else; crew is kept back for
  boarders when any are aboard.

``resolve_battle`` plays turns until one side has no ship in action (destroyed, captured,
withdrawn, derelict or dead in space) or ``max_turns`` is reached; the result names the
winner and why (``destruction``, ``withdrawal``, ``turn-limit``, ``mutual``). Same seed and
fleets → the identical event log (tested across processes with different hash seeds).
"""

from battles.rules.ai.battle import BattleResult, clone, crew_plan, deploy, resolve_battle
from battles.rules.ai.fire import ship_fire
from battles.rules.ai.kit import (
    CRIPPLED,
    DEPLOY_GAP,
    DEPLOY_SPACING,
    LAUNCH_RANGE,
    MIN_SPEED,
    MISSILE_RANGE,
    REPAIR_ORDER,
    START_SPEED,
    VEIL_RANGE,
    crippled,
    preferred_range,
)
from battles.rules.ai.plans import ship_orders, steer

__all__ = [
    "CRIPPLED",
    "DEPLOY_GAP",
    "DEPLOY_SPACING",
    "LAUNCH_RANGE",
    "MIN_SPEED",
    "MISSILE_RANGE",
    "REPAIR_ORDER",
    "START_SPEED",
    "VEIL_RANGE",
    "BattleResult",
    "clone",
    "crew_plan",
    "crippled",
    "deploy",
    "preferred_range",
    "resolve_battle",
    "ship_fire",
    "ship_orders",
    "steer",
]
