"""The balance lab (``naqala.lab``): studies of many games and what they say.

A study plays complete games with chosen agents under a rule set, serially, in worker
processes or on a Dask cluster (``executors``), and reports them: summaries
(``results``), paired comparisons of two rule sets (``compare``) with scipy's statistics
(``stats``, ``sequential``), and a self-contained HTML report with matplotlib figures
(``report``). Playing a game stays in the core (``naqala.core.simulate``).

The statistics, the figures and Dask need the optional extra; ``require`` says exactly
what to install when it is missing.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: what to install for the lab's statistics, figures and clusters
INSTALL = "pip install 'naqala[lab]'"


class LabExtraMissing(RuntimeError):
    """A lab feature needs a library of the ``naqala[lab]`` extra that is not installed."""


def require(module: str, feature: str) -> ModuleType:
    """Import ``module`` or raise ``LabExtraMissing`` naming ``feature`` and the command
    that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise LabExtraMissing(
            f"{feature} needs {module.split('.')[0]}, from the lab extra: {INSTALL}"
        ) from None
