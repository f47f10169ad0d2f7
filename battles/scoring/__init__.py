"""Victory points, standings by points, and fleet strength by turn.

- ``rules``: a campaign's :class:`~battles.models.ScoringRules` (read with defaults, edited
  by organisers) and the rules in words;
- ``shares``: who among a faction's players is credited with its points;
- ``awards``: the award rows of a concluded battle and of a turn close
  (:func:`~battles.scoring.awards.holdings_at_close`), their removal at a reopen, and the
  players credited with a faction's points;
- ``strength``: each fleet's active ships at a turn close;
- ``objectives``: the organiser sets how many objectives a side met;
- ``table``: the standings a viewer may read (per faction, per player, tonnage, the
  series per turn of the charts); ``charts``: those series as SVG;
- ``receivers``: the signals of a conclusion, a battle reopen, a turn close and reopen.

Layer: battle services (beside ``battles.services`` and ``battles.standings``). It imports
battle models and reads, the turns' and league's models and signals, factions; never
pages, the API, reports or play (import-linter, pyproject.toml).
"""
