"""``{{ svg|nonce_styles:request }}``: see :func:`campaign.core.csp.nonce_styles`."""

from django import template

from campaign.core.csp import nonce_styles as _nonce_styles

register = template.Library()


@register.filter
def nonce_styles(markup, request):
    """The trusted ``markup`` with the request's CSP nonce on its ``<style>`` elements."""
    return _nonce_styles(markup, request)
