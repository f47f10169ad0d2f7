"""Where the names go on a battle's map: around each marker, so that no two names
overlap and none covers another marker where a free spot exists. One placement for the
report's map and the replay's board (``battles.log.battle_map``), so a ship's name sits
at the same place on both. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["ASCENT", "DESCENT", "FONT", "LEADER_FROM", "place_labels"]

FONT = 1.4  # a name's font size, in marker units (scale)
# A name's box above and below its baseline, in ems: DejaVu Sans's ascent and descent, as a
# browser measures the drawn text. A box of 0.8 + 0.2 em let two names stacked one line
# apart overlap by their accents and descenders once drawn.
ASCENT, DESCENT = 0.93, 0.24

# Where a ship's name may go, around its marker, in marker units (scale): x, y of the text
# and its anchor, tried in this order: next to the marker first, then farther out (with a
# leader line) for ships in a crowd.
_NEAR_SPOTS = (
    (1.8, 0.5, "start"),  # right
    (-1.8, 0.5, "end"),  # left
    (0.0, -2.6, "middle"),  # above
    (0.0, 3.4, "middle"),  # below
    (1.8, -1.6, "start"),  # upper right
    (1.8, 2.6, "start"),  # lower right
    (-1.8, -1.6, "end"),  # upper left
    (-1.8, 2.6, "end"),  # lower left
)
_LABEL_SPOTS = _NEAR_SPOTS + tuple(
    (dx * ring, dy * ring + 0.5, anchor)
    for ring in (2.0, 3.0, 4.5)
    for dx, dy, anchor in (
        (2.0, 0.0, "start"),
        (-2.0, 0.0, "end"),
        (1.6, -1.6, "start"),
        (-1.6, -1.6, "end"),
        (1.6, 1.6, "start"),
        (-1.6, 1.6, "end"),
        (0.0, -2.0, "middle"),
        (0.0, 2.0, "middle"),
    )
)
#: Spots past the near ones get a leader line back to their marker.
LEADER_FROM = len(_NEAR_SPOTS)


def place_labels(
    points: Sequence[tuple[float, float, str]],
    scale: float,
    bounds: tuple[float, float, float, float] | None = None,
) -> list[tuple[float, float, str, bool] | None]:
    """Where each name is written: per ``(x, y, name)`` (a marker's position in drawing
    axes, y down, and its name; ``""``: no name, the marker is only in the way),
    ``(x, y, anchor, leader)`` of the name's baseline relative to the marker in map
    units, or None for no name. No two names overlap and no name covers another marker
    where a free spot exists (greedy, in the given order; text width estimated at 0.6 em
    a character). A name with no free spot takes the first spot that overlaps least
    (names of markers lying on the same point cannot all be kept apart). ``leader`` is
    True for a spot away from the marker, drawn with a line back to it. ``bounds``
    (left, top, right, bottom in the drawing's units): a name crossing them counts as an
    overlap, so names stay on the map where they can."""
    font = FONT * scale
    markers = [(x - 1.6 * scale, y - 2 * scale, x + 1.6 * scale, y + 1.8 * scale)
               for x, y, _ in points]  # fmt: skip
    placed: list[tuple[float, float, float, float]] = []
    out: list[tuple[float, float, str, bool] | None] = []
    for own, (ex, ey, text) in enumerate(points):
        if not text:
            out.append(None)
            continue
        width = 0.6 * font * len(text)
        best: tuple[int, tuple[float, float, str, bool], tuple[float, ...]] | None = None
        for index, (dx, dy, anchor) in enumerate(_LABEL_SPOTS):
            x, y = dx * scale, dy * scale
            left = ex + x - {"start": 0, "middle": width / 2, "end": width}[anchor]
            box = (left, ey + y - ASCENT * font, left + width, ey + y + DESCENT * font)
            hits = sum(_overlap(box, other) for other in placed)
            hits += sum(_overlap(box, m) for i, m in enumerate(markers) if i != own)
            if bounds and not (bounds[0] <= box[0] and box[2] <= bounds[2]):
                hits += 1
            if bounds and not (bounds[1] <= box[1] and box[3] <= bounds[3]):
                hits += 1
            if best is None or hits < best[0]:
                best = (hits, (x, y, anchor, index >= LEADER_FROM), box)
            if hits == 0:
                break
        out.append(best[1])  # type: ignore[index]  # _LABEL_SPOTS is not empty
        placed.append(best[2])  # type: ignore[index]
    return out


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
