"""Site-wide template tags (league nav, CSP nonces): top layer, may import any app."""
