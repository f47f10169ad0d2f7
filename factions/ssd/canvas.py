"""The SVG canvas the ship system diagrams (:mod:`factions.ssd.draw`) are drawn on: a
drawing that grows downwards, with the SSD's style sheet embedded, drawn once whatever
the languages.

A drawing is a tree of :class:`Element` (tag, attributes, text, children, as
``xml.etree.ElementTree`` would hold them) in which the parts that depend on the language
(a label, a title shrunk to fit its text, the crew dots placed after their label) are
:meth:`Canvas.later` blocks: functions drawn into the tree when the drawing is rendered,
in the active language. :meth:`Canvas.finish` serialises the rest once
(:class:`Drawing`), so a ship's SSD on its page and its battles' pages in every language is
one drawing and one short rendering per language. The output is what
``ElementTree.tostring(root, encoding="unicode")`` gives for the same tree (same
escaping, ``<tag />`` when empty).

Units: drawing units of 0.25 mm (:data:`UNITS_PER_MM`); the SVG is :data:`WIDTH` units
(190 mm) wide so it prints on A4 with margins. Every text and attribute is escaped.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

SVG_NS = "http://www.w3.org/2000/svg"
WIDTH = 760  # drawing units; 4 units per mm -> 190 mm
MARGIN = 20
UNITS_PER_MM = 4

#: The SSD's rules (static/css/ssd.css, also linked by the app's pages): embedded in each SVG
#: so that a standalone ``ssd.svg`` and the PDF draw the same.
STYLE = (Path(__file__).resolve().parents[2] / "static" / "css" / "ssd.css").read_text(
    encoding="utf-8"
)


class Element:
    """An SVG element: ``tag``, ``attrib`` (in order), ``text`` and ``children``
    (elements, or :class:`_Later` blocks)."""

    __slots__ = ("attrib", "children", "tag", "text")

    def __init__(self, tag: str, attrib: dict[str, str] | None = None) -> None:
        self.tag, self.attrib = tag, attrib or {}
        self.text: str | None = None
        self.children: list[Element | _Later] = []

    def set(self, key: str, value: str) -> None:
        self.attrib[key] = value


class _Later:
    """A part drawn at rendering time (in the active language) into a bare container."""

    __slots__ = ("draw",)

    def __init__(self, draw: Callable[[Canvas, Element], None]) -> None:
        self.draw = draw


def _attr(text: str) -> str:
    # As ElementTree's _escape_attrib.
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if '"' in text:
        text = text.replace('"', "&quot;")
    if "\r" in text:
        text = text.replace("\r", "&#13;")
    if "\n" in text:
        text = text.replace("\n", "&#10;")
    if "\t" in text:
        text = text.replace("\t", "&#09;")
    return text


def _cdata(text: str) -> str:
    # As ElementTree's _escape_cdata.
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


def _write(element: Element, out: list, canvas: Canvas | None) -> None:
    """Append ``element`` serialised to ``out``: strings, and the :class:`_Later` blocks
    as they are (``canvas`` None) or drawn and serialised (``canvas``: rendering)."""
    head = "<" + element.tag
    for key, value in element.attrib.items():
        head += f' {key}="{_attr(value)}"'
    if not (element.text or element.children):
        out.append(head + " />")
        return
    out.append(head + ">")
    if element.text:
        out.append(_cdata(element.text))
    for child in element.children:
        if isinstance(child, Element):
            _write(child, out, canvas)
        elif canvas is None:
            out.append(child)
        else:
            _write_later(child, out, canvas)
    out.append(f"</{element.tag}>")


def _write_later(later: _Later, out: list, canvas: Canvas) -> None:
    box = Element("")
    later.draw(canvas, box)
    for child in box.children:
        if isinstance(child, Element):
            _write(child, out, canvas)
        else:
            _write_later(child, out, canvas)


class Drawing:
    """A finished SSD: its markup with the language's parts left to :meth:`render`."""

    __slots__ = ("_canvas", "_parts")

    def __init__(self, parts: list, canvas: Canvas) -> None:
        self._parts, self._canvas = parts, canvas

    def render(self) -> str:
        """The standalone ``<svg>`` element in the active language."""
        out: list[str] = []
        for part in self._parts:
            if isinstance(part, str):
                out.append(part)
            else:
                _write_later(part, out, self._canvas)
        return "".join(out)


class Canvas:
    """A growing SVG drawing; ``y`` is the next free line (drawing units)."""

    def __init__(self, id_prefix: str = "", *, style: bool = True) -> None:
        self.id_prefix = id_prefix  # element ids stay unique when several SSDs share a page
        self.root = Element(
            "svg", {"xmlns": SVG_NS, "class": "ssd", "version": "1.1", "role": "img"}
        )
        if style:
            self.el(self.root, "style").text = STYLE
        self.y: float = MARGIN

    def el(self, parent: Element | None, tag: str, **attrs: Any) -> Element:
        clean = {k.rstrip("_").replace("__", "-"): str(v) for k, v in attrs.items()}
        if "id" in clean:
            clean["id"] = self.id_prefix + clean["id"]
        element = Element(tag, clean)
        (self.root if parent is None else parent).children.append(element)
        return element

    def later(self, parent: Element | None, draw: Callable[[Canvas, Element], None]) -> None:
        """``draw(canvas, container)`` at rendering time, in the active language: what it
        draws into ``container`` takes this place among ``parent``'s children. It must not
        move ``y`` (the layout is fixed when the drawing is made)."""
        (self.root if parent is None else parent).children.append(_Later(draw))

    def text(
        self,
        parent: Element | None,
        x: float,
        y: float,
        s: str,
        cls: str,
        *,
        fit: float | None = None,
        size: float = 0,
    ) -> None:
        """A text; with ``fit`` (width in units) it is shrunk from ``size`` px to fit."""
        attrs: dict[str, Any] = {"x": f"{x:.1f}", "y": f"{y:.1f}", "class_": cls}
        if fit is not None and size:
            # ~0.6 em per character in DejaVu Sans: shrink long titles instead of clipping.
            # A presentation attribute, not style="": a strict CSP (style-src 'self') refuses
            # inline style attributes; ssd.css sets no font-size for these classes.
            attrs["font__size"] = f"{min(size, fit / (0.62 * max(1, len(s)))):.1f}"
        self.el(parent, "text", **attrs).text = s

    def label(self, parent: Element, x: float, y: float, s: str, width: int) -> None:
        """A centred label cut to ``width`` characters; the full text goes in a tooltip."""
        short = s if len(s) <= width else s[: width - 1] + "…"
        el = self.el(parent, "text", x=f"{x:.1f}", y=f"{y:.1f}", class_="label")
        el.text = short
        if short != s:
            title = Element("title")
            title.text = s
            el.children.append(title)

    def cross(self, parent: Element, x: float, y: float, w: float, h: float) -> None:
        self.el(
            parent,
            "path",
            d=(
                f"M{x:.1f},{y:.1f} L{x + w:.1f},{y + h:.1f} "
                f"M{x + w:.1f},{y:.1f} L{x:.1f},{y + h:.1f}"
            ),
            class_="cross",
        )

    def finish(self, title: Callable[[], str]) -> Drawing:
        """The drawing, titled ``title()`` (in the language it is rendered in)."""
        height = self.y + MARGIN
        self.root.set("viewBox", f"0 0 {WIDTH} {height:g}")
        self.root.set("width", f"{WIDTH / UNITS_PER_MM:g}mm")
        self.root.set("height", f"{height / UNITS_PER_MM:g}mm")

        def titled(c: Canvas, box: Element) -> None:
            c.el(box, "title").text = title()

        self.root.children.insert(0, _Later(titled))
        parts: list = []
        _write(self.root, parts, None)
        # Neighbouring strings joined once: rendering then joins a few dozen parts.
        merged: list = []
        for part in parts:
            if isinstance(part, str) and merged and isinstance(merged[-1], str):
                merged[-1] += part
            else:
                merged.append(part)
        return Drawing(merged, self)
