"""The data seam (:mod:`mrc_pyomo.data.source`): the training data of a fit, reached by passes over its samples
and by rows fetched by sample id, in memory or on Dask (:mod:`mrc_pyomo.data.dask_source`)."""

from .convert import as_source, is_dask_array
from .source import DataSource, InMemorySource

__all__ = ["DaskSource", "DataSource", "InMemorySource", "as_source", "is_dask_array"]


def __getattr__(name):
    """``DaskSource`` is imported on first use: Dask is an optional extra."""
    if name == "DaskSource":
        from .dask_source import DaskSource
        return DaskSource
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
