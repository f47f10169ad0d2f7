"""Names on the battle map never overlap as drawn: a name's box spans the font's ascent
and descent (what a browser measures), so two names stacked a line apart no longer touch
by their accents and descenders."""

from __future__ import annotations

import itertools

from battles.log.map_labels import FONT, place_labels

#: DejaVu Sans, as a browser's getBoundingClientRect measures a drawn name (ems).
DRAWN_ASCENT, DRAWN_DESCENT = 0.93, 0.24

#: Six ships in a crowd where the names used to touch once drawn.
CROWD = [
    (-0.7, 2.0, "Ra'am II"),
    (-4.6, 2.3, "Sa'ar"),
    (-3.3, -3.2, "Vishnu Alfa"),
    (-1.5, -4.0, "Petra 4"),
    (-3.2, -2.6, "Vishnu Prime"),
    (1.0, -3.5, "Nith one"),
]


def _drawn(points, places, scale):
    font = FONT * scale
    for (x, y, text), place in zip(points, places, strict=True):
        width = 0.6 * font * len(text)
        left = x + place[0] - {"start": 0, "middle": width / 2, "end": width}[place[2]]
        top, bottom = y + place[1] - DRAWN_ASCENT * font, y + place[1] + DRAWN_DESCENT * font
        yield text, (left, top, left + width, bottom)


def test_names_in_a_crowd_do_not_overlap_as_drawn():
    places = place_labels(CROWD, 1.0)
    boxes = list(_drawn(CROWD, places, 1.0))
    touching = [
        (a, b)
        for (a, p), (b, q) in itertools.combinations(boxes, 2)
        if p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]
    ]
    assert touching == []
