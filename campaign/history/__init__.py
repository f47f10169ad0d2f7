"""A campaign's history for its organisers: memberships, fleets, ships, battles, turns and
ledger rows as one list, newest first, filterable and read a page at a time.

Imports: the league, factions, campaign turns and battle models (all below it), and
``campaign.core``; never pages or the API (``campaign.web`` shows it).
"""
