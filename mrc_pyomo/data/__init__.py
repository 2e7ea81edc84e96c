"""The data seam (:mod:`mrc_pyomo.data.source`): a fit's training data, reached by passes and by rows, in memory,
on Dask (:mod:`mrc_pyomo.data.dask_source`) or in another array API library (:mod:`mrc_pyomo.data.namespace`)."""

from .convert import as_source, is_dask_array
from .namespace import array_namespace, is_numpy, to_numpy
from .source import ArraySource, DataSource, InMemorySource

__all__ = ["ArraySource", "DaskSource", "DataSource", "InMemorySource", "array_namespace", "as_source",
           "is_dask_array", "is_numpy", "to_numpy"]


def __getattr__(name):
    """``DaskSource`` is imported on first use: Dask is an optional extra."""
    if name == "DaskSource":
        from .dask_source import DaskSource
        return DaskSource
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
