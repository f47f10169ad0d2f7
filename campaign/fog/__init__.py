"""Fog of war on the star map (app label ``fog``): what each faction sees of the others'
fleets.

- ``reach``: the sensor-reach rule (pure), a project reading stated in its docstring;
- ``knowledge``: what one viewer sees at one turn (``fog_for``), which
  ``campaign.starmap.view.map_view`` applies to every page, API answer, SVG and site map;
- ``models``: ``Sighting`` (what a faction saw at a turn close), ``Reveal`` (what an
  organiser showed a faction);
- ``sightings``: written at each turn close, deleted by its reopening (signals of
  ``campaign.core.signals``); ``reveals``: reveal and revoke (organisers);
- ``admin``: staff views; ``web/``, ``api/``: the organisers' reveal page and endpoints.

Imports: the star map's models, factions, the league and campaign.core (the campaign-turns
layer, beside ``campaign.starmap``); ``web/`` and ``api/`` are on the pages layer.
"""
