"""The published site: plain HTML files baked from the public campaign.

``site_build(out_dir=…, campaign_slug=…, languages=…)`` is the entry point; ``build_site``,
``demo`` and the ``campaign.site_refresh`` task call it.

- ``builder``: the build; ``output``, ``paths``: the output folder and its file names;
- ``pages``, ``battle_pages``, ``maps``, ``replays``, ``charts``, ``standings``, ``feeds``:
  the page producers; ``rows``: what the build reads of published battles;
- ``search``: client-side search (Pagefind).

Imports: the top layer, so any layer below: battles.reports (report files and contexts),
battles.play (boards), battles' models, campaign turns, factions (scoping, SSDs), the league
and campaign.core; it uses no page or API router (import-linter, pyproject.toml).
"""

from campaign.publish.builder import MARKER, SiteBuildError, SiteBuildResult, site_build

__all__ = ["MARKER", "SiteBuildError", "SiteBuildResult", "site_build"]
