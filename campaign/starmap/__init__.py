"""The star map of a campaign (app label ``starmap``): systems with positions, links
between them with a travel time in campaign turns, the factions' territories placed in
systems, and where each fleet is (in a system, or on a link with an arrival turn).

- ``models``: ``StarSystem``, ``StarLink``, ``TerritoryPlacement``, ``FleetPosition``,
  ``MapMove`` (a fleet's order along links);
- ``view``: ``map_view`` — the one reading of the map for display (pages, API, SVG, site);
- ``routes``: shortest paths over the links (networkx);
- ``movement``: placing a fleet, ordering and cancelling a move, ``Fleet.territory`` derived;
- ``advance``: the turn close — fleets advance, meetings announced; ``admin``: staff views;
- ``svg``: the map drawn as SVG from a ``MapView``;
- ``web/``, ``api``: the map page and its API (pages layer).

Imports: the same layer as ``campaign.turns`` (import-linter, pyproject.toml): factions,
the league and campaign.core below; battles never (a meeting is announced with the
``campaign.core.signals.fleets_met`` signal, on commit, and ``battles`` creates the draft).
"""
