"""Commands import_fleet and import_designs: factions' services and designs, never battles."""
