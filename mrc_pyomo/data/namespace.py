"""The array seam: the namespace of the arrays a pass is given (the array API standard, through scikit-learn's
vendored ``array-api-compat``), so that the passes of the first-order methods and of the primal oracle run on NumPy
arrays, SciPy sparse matrices and the arrays of any library of the standard (CuPy or PyTorch on a GPU;
``array-api-strict`` in the tests) on their own device.  NumPy stays the only array library required.
"""

import numpy as np
import scipy.sparse as sp
from sklearn.externals import array_api_compat

# the namespace of NumPy arrays (and of SciPy sparse matrices, whose products are NumPy arrays); not in the API
# pages, whose text would show where the package is installed
NUMPY = array_api_compat.array_namespace(np.empty(0))


def array_namespace(*arrays):
    """The array API namespace of ``arrays`` (None and sparse matrices left out; NumPy's if none is left); a
    ``TypeError`` if they are of several libraries."""
    if all(type(array) is np.ndarray for array in arrays):   # the common case, at no cost
        return NUMPY
    dense = [array for array in arrays if array is not None and not sp.issparse(array)]
    if all(type(array) is np.ndarray for array in dense):
        return NUMPY
    return array_api_compat.array_namespace(*dense)


def is_numpy(xp):
    """Whether ``xp`` (a namespace of :func:`array_namespace`) is NumPy's."""
    return xp is NUMPY or array_api_compat.is_numpy_namespace(xp)


def is_standard_array(data):
    """Whether ``data`` is an array of the array API standard of a library other than NumPy and Dask (which has
    :mod:`mrc_pyomo.data.dask_source`)."""
    if isinstance(data, np.ndarray) or sp.issparse(data) or type(data).__module__.startswith("dask."):
        return False
    return hasattr(data, "__array_namespace__") or array_api_compat.is_array_api_obj(data)


def to_numpy(array):
    """``array`` as a NumPy array on the host: itself, CuPy's ``get()``, PyTorch's ``cpu()``, else ``np.asarray``."""
    if isinstance(array, np.ndarray):
        return array
    if hasattr(array, "get"):
        return array.get()
    return np.asarray(array.cpu() if hasattr(array, "cpu") else array)
