"""The seed's sample campaign: factions, fleets and battles loaded from the JSON files here
(``loader``, idempotent), for ``load_sample`` and ``demo``.

Imports: the top layer, so any layer below: battles.services and models, factions (models,
catalogue, designs), the league's models; only the commands import it (import-linter,
pyproject.toml).
"""
