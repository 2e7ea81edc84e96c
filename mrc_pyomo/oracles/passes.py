"""The passes of the first-order methods (MRC-FOM, MRC-PDHG): the two products with ``Psi`` that each of their
iterations makes, and the proximal map of the ``lambda . |mu|`` term of ``R`` (eq. 3).  ``forward`` gives the scores
``V = Psi mu^T``, ``backward`` the ``(K, D)`` product ``Psi^T W`` (the dual oracle's ``g = F^T alpha``), each one
map-reduce over the data source (:mod:`mrc_pyomo.data`), Dask or GPU alike.
"""

import numpy as np

from ..data import array_namespace, as_source, is_numpy
from .primal import class_scores


def forward(data, mu):
    """The class scores ``V = Psi mu^T`` of every sample, shape ``(n, K)``: one pass."""
    xp = array_namespace(mu)
    if is_numpy(xp):
        return as_source(data).scores(mu)
    return as_source(data).map_reduce(lambda block, start: class_scores(block, mu), xp.concat)


def backward(data, W):
    """``Psi^T W`` as a ``(K, D)`` array for per-sample class weights ``W`` (shape ``(n, K)``): one pass."""
    xp = array_namespace(W)
    if is_numpy(xp):
        return as_source(data).weighted_sums(W)
    transpose = xp.matrix_transpose
    return as_source(data).map_reduce(lambda block, start, part: transpose(transpose(block) @ part), sum, W)


def soft_threshold(z, threshold):
    """The proximal map of ``threshold . |mu|``: ``sign(z) max(|z| - threshold, 0)``, in the namespace of ``z``."""
    xp = array_namespace(z)
    return xp.sign(z) * xp.maximum(xp.abs(z) - threshold, 0.0)
