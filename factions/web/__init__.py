"""Faction, fleet, ship and ship-class pages: thin views that look up, scope through
``factions.access`` and render.

- ``pages``: the views; ``fleet_page``: the fleet page's body in a fixed number of queries;
- ``timeline``: a ship's life, its history merged with its battles; ``urls``: URL patterns.

Imports: any layer below the pages: battles.reports, battles.services, battles' models and
scoping, campaign turns (repairs), factions' domain, the league's roles and campaign.core;
never another app's pages, the root API, the URLs or publishing (import-linter,
pyproject.toml).
"""
