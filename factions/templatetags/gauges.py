"""``{% gauge left total %}``: a boxes-left gauge ("7/10" over a thin bar), for hull,
armour, crew and light-unit strength on the fleet and ship pages.

One Python function rather than an included template: the fleet page draws three per
ship, and the include with its ``blocktranslate`` was most of a 100-ship page's 45 ms.
:func:`gauge_html` also serves ``factions.web.fleet_page``'s prepared rows.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

register = template.Library()


def gauge_html(left: int, total: int) -> SafeString:
    """The gauge's markup: CSS classes ``partial`` (some lost) and ``empty`` (none left),
    a translated title, and the bar's width in percent of ``total`` (rounded as
    ``{% widthratio %}`` does; 0 when ``total`` is 0)."""
    classes = "gauge" + (" partial" if left < total else "") + ("" if left else " empty")
    width = round(left / total * 100) if total else 0
    return format_html(
        '<span class="{}" title="{}"><span class="gauge-text">{}/{}</span>'
        '<span class="gauge-bar" aria-hidden="true"><span style="width: {}%"></span></span>'
        "</span>",
        classes,
        gettext("%(left)s of %(total)s left") % {"left": left, "total": total},
        left,
        total,
        width,
    )


@register.simple_tag
def gauge(left: int, total: int) -> SafeString:
    """``{% gauge left total %}``: see :func:`gauge_html`."""
    return gauge_html(left, total)
