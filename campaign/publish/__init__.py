"""The published site: plain HTML files baked from the public campaign (DESIGN.md §5).

``site_build(out_dir=…, campaign_slug=…)`` is the entry point; ``build_site`` and ``demo``
call it.
"""

from .builder import SiteBuildError, SiteBuildResult, site_build

__all__ = ["SiteBuildError", "SiteBuildResult", "site_build"]
