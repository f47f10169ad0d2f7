"""The factions app: factions and their territories, ship classes and their designs (SSDs),
fleets, squadrons, ships and light units, the fleet-list parser and the catalogue.

- ``models``, ``access``: the models and who may see which fleet, ship and secret;
- ``designs/``, ``ssd/``: design documents checked and priced, ship system diagrams;
- ``fleetlists``, ``services``, ``catalogue_loader``: fleet lists parsed and imported,
  the ship-class catalogue loaded;
- ``fleet_cache``, ``fleet_totals``, ``versioning``, ``type_words``: the fleet page's
  cache and totals, the fleet data's version, ship type words;
- ``web/``, ``api/``, ``templatetags/``, ``management/``, ``admin``: pages, API, commands.

Imports: the domain modules sit above the league's models and below campaign turns: the
league (models, roles, API auth), campaign.core and the rules engine; never battles beyond
the rules engine; ``web/`` and ``api/`` are on the pages layer (import-linter,
pyproject.toml).
"""
