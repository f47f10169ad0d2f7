"""The league pages: index, campaigns, logging in and out, the members page and invitation
links, password resets, and the user's account with their API tokens; thin views.

- ``league``: index and campaign pages; ``members``, ``member_urls``: memberships, invitations;
- ``account``: the user's roles and API tokens; ``urls``: the URL patterns.

Imports: any layer below the pages: battles.reports, battles.standings, battles' models,
scoping and readings, factions, the league (members, invitations, roles, API auth) and
campaign.core; never the root API, the URLs or publishing (import-linter, pyproject.toml).
"""
