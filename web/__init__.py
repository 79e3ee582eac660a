"""Play in the browser: ``naqala serve`` (needs the extra ``pip install 'naqala[web]'``).

:mod:`naqala.web.games` holds one game and what each seat may do and see;
:mod:`naqala.web.store` the games of a server and their files; :mod:`naqala.web.app`
the HTTP side (starlette), from :mod:`naqala.web.server` (locks, the AI task, events),
:mod:`naqala.web.endpoints` (the routes' handlers), :mod:`naqala.web.streams` (the event
streams) and :mod:`naqala.web.reading` (a request read and checked);
:mod:`naqala.web.pages` the HTML pages. Import
:func:`naqala.web.app.create_app` only with the extra installed.
"""

#: what to install for this package's server
INSTALL = "pip install 'naqala[web]'"

__all__ = ["INSTALL"]
