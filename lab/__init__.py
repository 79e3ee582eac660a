"""The balance lab (``naqala.lab``): studies of many games and what they say.

A study plays complete games with chosen agents under a rule set, serially, in worker
processes or on a Dask cluster (``executors``), and reports them: summaries
(``results``), paired comparisons of two rule sets (``compare``) with scipy's statistics
(``stats``, ``sequential``), and a self-contained HTML report with matplotlib figures
(``report``). Playing a game stays in the core (``naqala.core.simulate``).

The statistics, the figures and Dask need an optional extra (``naqala[lab]`` for all of
them, ``naqala[tune]`` for ``naqala tune`` alone, ``naqala[dask]`` for clusters alone);
``require`` says exactly what to install when one is missing.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: what to install for the lab's statistics, figures and clusters
INSTALL = "pip install 'naqala[lab]'"

#: the smaller extra that brings a library by itself (``naqala[lab]`` brings them all)
EXTRA_OF = {"optuna": "tune", "distributed": "dask", "dask": "dask"}


class LabExtraMissing(RuntimeError):
    """A lab feature needs a library of the ``naqala[lab]`` extra that is not installed."""


def require(module: str, feature: str, extra: str | None = None) -> ModuleType:
    """Import ``module`` or raise ``LabExtraMissing`` naming ``feature`` and the command
    that installs it: ``extra`` when given (``tune`` for the tuner's scipy), else the
    library's own extra, else the lab's."""
    try:
        return importlib.import_module(module)
    except ImportError:
        library = module.split(".")[0]
        name = extra or EXTRA_OF.get(library, "lab")
        raise LabExtraMissing(
            f"{feature} needs {library}, from the {name} extra: pip install 'naqala[{name}]'"
        ) from None
