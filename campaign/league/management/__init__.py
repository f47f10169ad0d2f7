"""The add_member command: league services and models, factions and below; never pages."""
