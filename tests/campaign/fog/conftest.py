"""The fog-of-war tests run on the star map tests' small map (``starmap``, see
tests/campaign/starmap/conftest.py): Norge holds Oslo Station (a station) at Sol with its
Home Fleet; Qatzrin holds Qatz Prime at Rigel with its Raiders and has the hidden Shadow
at Deneb. Links: Sol–Vega 1, Vega–Rigel 2, Sol–Deneb 1, Deneb–Rigel 1; Far has none.
Each fleet has one frigate of mass 24 (one blip)."""

from tests.campaign.starmap.conftest import starmap  # noqa: F401
