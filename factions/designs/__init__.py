"""Ship designs (``ShipClass.design``): the design document, its checks against the rules, its
masses and points (Fleet Book design system), and its imports and exports.

- ``schema``: the document and its validation; ``validation``: checked and priced;
- ``construction``, ``points``: masses and points, stated points checked;
- ``imports``, ``ftlibship``: ftLibShip / ftShipBuilder JSON and the project's format.

Imports: factions' models, campaign.core and the rules engine; never battles beyond the
rules engine, campaign turns, pages or the API (import-linter, pyproject.toml).
"""
