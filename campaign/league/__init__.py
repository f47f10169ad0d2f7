"""The league (app label ``campaign``): campaigns, memberships and the roles they give,
invitations, API tokens, and the intel each faction gathers.

- ``models``: ``Campaign``, ``Membership``, ``Intel``, ``ApiToken``, ``Invitation``;
- ``roles``: who organises, plays or chronicles what, the lowest scoping helper;
- ``api_auth``: the one auth object of the API's write endpoints;
- ``members``, ``invitations``: memberships run by organisers, invitation links;
- ``admin``, ``management/``: the staff admin and ``add_member``.

Imports: two layers. ``models``, ``roles`` and ``api_auth`` sit below factions: campaign.core
and the rules engine (rule options) only. ``members``, ``invitations``, ``admin`` and
``management`` sit above factions and may import it too. None imports campaign turns,
battles beyond the rules engine, pages or the API (import-linter, pyproject.toml).
"""
