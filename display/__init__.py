"""Pictures of game positions: an SVG renderer and a self-contained HTML replay viewer.

``board_svg(rules, state, seat=None)`` gives an SVG 1.1 document; ``BoardPicture`` shows a
position in a notebook (``_repr_svg_``); ``replay_html`` (in :mod:`naqala.display.html`)
writes a whole recorded game as one HTML page. Plugins describe their components through
the hook ``naqala_display`` (:mod:`naqala.display.hints`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from naqala.display.svg import BoardPicture, board_svg, svg_parts

__all__ = ["BoardPicture", "board_svg", "svg_parts"]


def __getattr__(name: str) -> Any:
    """The renderer is imported when first used: the plugins import ``display.hints``
    on every start, and a command that draws nothing should not pay for the SVG code."""
    if name in __all__:
        from naqala.display import svg

        return getattr(svg, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
