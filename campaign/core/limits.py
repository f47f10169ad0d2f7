"""The documented size limits of what users send (README "Limits").

Each limit answers with a readable message naming it (JSON ``{"detail": …}`` on the API):

- ``REQUEST_BODY_MAX_BYTES``: any request body (413, ``campaign.core.middleware``); also
  Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``.
- ``TEXT_MAX_CHARS``: any long text stored (narratives, analyses, scenarios,
  descriptions, notes: every ``TextField``), checked before each save
  (``campaign.core.validation.check_model_text``).
- ``FLEET_LIST_MAX_LINES`` and ``FLEET_MAX_SHIPS``: a fleet list imported
  (``factions.services.fleet_import``).
- ``DESIGN_FILE_MAX_DESIGNS``: designs (or ftLibShip ships) in one design file
  (``factions.designs.imports.designs_parse``).
- ``NUMBER_MAX``: any whole number typed into a form or sent to the API that is stored
  (turn numbers, treasury amounts): what every database's integer column holds.
"""

REQUEST_BODY_MAX_BYTES = 2 * 1024 * 1024  # 2 MiB: the ftLibShip presets file is 0.3 MiB
TEXT_MAX_CHARS = 100_000  # about 15 000 words: a long after-action report is 3 000
FLEET_LIST_MAX_LINES = 2_000
FLEET_MAX_SHIPS = 300  # the seed's largest fleet has about 40 hulls
DESIGN_FILE_MAX_DESIGNS = 1_000  # the ftLibShip presets hold a few hundred
NUMBER_MAX = 2**31 - 1  # a 32-bit integer column: SQLite overflows past 2**63, PostgreSQL past this
