"""The published site: plain HTML files baked from the public campaign (DESIGN.md §5).

``site_build(out_dir=…, campaign_slug=…, languages=…)`` is the entry point; ``build_site``,
``demo`` and the ``campaign.site_refresh`` task call it.
"""

from campaign.publish.builder import MARKER, SiteBuildError, SiteBuildResult, site_build

__all__ = ["MARKER", "SiteBuildError", "SiteBuildResult", "site_build"]
