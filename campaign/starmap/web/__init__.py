"""The star map's pages (pages layer): the map of a campaign with its lists, and the move
order and cancel forms (``campaign.starmap.web.views``, ``urls``)."""
