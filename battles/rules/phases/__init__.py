"""The phases of a game turn (rules §2), one module per phase group.

``battles.rules.turn.play_turn`` runs them in order:

- ``orders``: 1 orders checked before any die, 2 initiative, screens and veils;
- ``launches``: 3 launches, end of 6 landings, 8 light-unit intent;
- ``movement``: light-unit moves of 3, 4 and 6, ship movement in 5;
- ``sensors``: 7 contacts;
- ``ship_fire`` and ``point_defence``: 9 ship fire, then PD and area defence;
- ``light_fire``: 10 light-unit fire, sub-phases (a)–(d);
- ``effects``: the damage of phases 9–11 applied (simultaneous fire);
- ``end_of_turn``: 11 damage control, boarding, countdowns, withdrawals.

``state`` holds what they share: ``BattleState``, ``ShipOrders``, ``LightUnit``, ``Event``.
"""
