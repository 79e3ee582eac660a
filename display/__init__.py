"""Pictures of game positions: an SVG renderer and a self-contained HTML replay viewer.

``board_svg(rules, state, seat=None)`` gives an SVG 1.1 document; ``BoardPicture`` shows a
position in a notebook (``_repr_svg_``); ``replay_html`` (in :mod:`naqala.display.html`)
writes a whole recorded game as one HTML page. Plugins describe their components through
the hook ``naqala_display`` (:mod:`naqala.display.hints`).
"""

from naqala.display.svg import BoardPicture, board_svg, svg_parts

__all__ = ["BoardPicture", "board_svg", "svg_parts"]
