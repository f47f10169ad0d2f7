"""The factions API (django-ninja routers mounted at ``/api/``): factions, fleets and ships,
and ship designs; thin handlers that scope through ``factions.access``.

- ``fleets``: factions, fleets, ships; ``fleet_rows``: a fleet's detail as plain rows;
- ``designs``: ship designs in and out.

Imports: any layer below the pages: factions' domain (models, access, services, designs,
SSDs, the fleet cache), the league (roles, API auth) and campaign.core; never the root API,
the URLs or publishing (import-linter, pyproject.toml).
"""
