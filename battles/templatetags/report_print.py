"""Template helpers of the printed report (``templates/reports/battle.html`` with
``print``): a drawing as an image the PDF decodes by itself."""

from django import template

from battles.reports.data_uri import svg_data_uri

register = template.Library()
register.filter("svg_data_uri", svg_data_uri)
