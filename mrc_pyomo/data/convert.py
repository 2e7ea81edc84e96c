"""What a fit is given, as a :class:`~mrc_pyomo.data.source.DataSource` (:func:`as_source`)."""

from .namespace import is_standard_array
from .source import ArraySource, DataSource, InMemorySource


def as_source(data):
    """``data`` as a :class:`DataSource`: a source as it is, a Dask array as a
    :class:`~mrc_pyomo.data.dask_source.DaskSource`, another array API library's array as an
    :class:`~mrc_pyomo.data.source.ArraySource`, anything else (NumPy, SciPy sparse) in memory."""
    if isinstance(data, DataSource):
        return data
    if is_dask_array(data):
        from .dask_source import DaskSource
        return DaskSource(data)
    if is_standard_array(data):
        return ArraySource(data)
    return InMemorySource(data)


def is_dask_array(data):
    """Whether ``data`` is a ``dask.array.Array`` (without importing Dask when it is not installed)."""
    return type(data).__module__.startswith("dask.") and hasattr(data, "to_delayed")
