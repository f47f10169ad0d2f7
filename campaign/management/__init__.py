"""Site-wide commands (build_site, demo, load_sample, generate_league): top layer, any app."""
