"""The route of a fit by MRC-CCG: which first-order phases run before its loop (``first_order``).

A first-order phase (FISTA, :mod:`mrc_pyomo.methods.fista`; MRC-PDHG's iterations, :mod:`mrc_pyomo.methods.pdhg`)
costs passes over the data and saves masters; it pays where masters are dear and many: many classes (``2^K - 1``
rows a sample) and dense, wide masters (random Fourier features, images: ``|C| D`` nonzeros a row).  Where
masters are cheap (few classes, few features, sparse text) the loop alone certifies quickly and a phase only
adds its passes.  So ``first_order="auto"`` (:func:`route`):

* the regime ``"nm"`` or ``"full"``, two classes, or masters cheap against the passes (fewer than
  :data:`MANY_CLASSES` classes with ``K D <`` :data:`WIDE`, ``n K D <`` :data:`ENTRIES` or, but on images, more
  than :data:`SAMPLES_PER_COLUMN` samples a column; many classes with ``n K <`` :data:`MANY_ROWS`): no phase;
* ``K D >=`` :data:`IMAGES` on a linear map of fewer than :data:`MANY_CLASSES` classes (images) over ``n K D >=``
  :data:`IMAGE_ENTRIES` entries (fewer: the loop alone, which certifies sooner): FISTA, whose rule is the better
  one early, then MRC-PDHG's iterations from its point until they stall (:data:`IMAGES_PDHG`), then the loop from
  the master of PDHG's support (on another array library's data, MRC-PDHG's alone: FISTA runs on NumPy's arrays);
* otherwise (many classes, random Fourier features): MRC-PDHG's iterations, then the loop from the master of
  its support (on many classes FISTA's rule barely moves).

The measurements behind each boundary: docs/benchmarks.md, "The route of the default fit".  ``True`` runs the
phases of the route, or MRC-PDHG's where the route has none; ``False`` none.
"""

import math

#: a fit of at least this many classes runs MRC-PDHG's phase
MANY_CLASSES = 20
#: a master of at least this many columns per sign (``K D``) is wide: a phase pays
WIDE = 2000
#: ... over at least this many entries of the scores ``Psi mu^T`` (``n K D``; fewer: the loop is quick) ...
ENTRIES = 5e6
#: ... and at most this many samples per column of ``Psi`` (``n / D``): with more, the loop's masters stay small
#: against the data while a phase's passes grow with it (docs/benchmarks.md, "The route of the default fit")
SAMPLES_PER_COLUMN = 20
#: many classes take a phase over at least this many pairs ``(i, y)`` (``n K``)
MANY_ROWS = 20_000
#: a linear map with at least this many columns per sign (``K D``) and fewer than MANY_CLASSES classes: images,
#: where FISTA's phase comes first ...
IMAGES = 4000
#: ... over at least this many entries of the scores (``n K D``): with fewer the loop certifies sooner than the
#: phases (docs/benchmarks.md, "The route of the default fit")
IMAGE_ENTRIES = 1.6e7

#: FISTA's phase before MRC-PDHG's ends once its best R improved by less than this (relative) over a smoothing
#: stage: FISTA gives the better rule early, PDHG's iterations the better rule after it
FISTA_HANDOVER = 0.05

#: on images MRC-PDHG's iterations hand over to the masters only once they stall: a master over images is dear
#: and leaves the rule as it is until the masters certify, while the iterations go on improving it
IMAGES_PDHG = {"handover": math.inf, "settled": math.inf}

#: the routes: the registered methods whose phases run, in order, each with the settings the route changes
LOOP = ()
PDHG = (("pdhg", {}),)
FISTA_THEN_PDHG = (("fom", {"tolerance": FISTA_HANDOVER}), ("pdhg", IMAGES_PDHG))


def route(problem, regime, first_order="auto", linear=True, host=True):
    """The first-order phases before MRC-CCG's loop on ``problem`` in ``regime`` (module docstring), as pairs of a
    registered method's name and the config settings the route changes: :data:`LOOP`, :data:`PDHG` or
    :data:`FISTA_THEN_PDHG`.  ``first_order``: ``"auto"``, ``True`` or ``False``; ``linear``: the feature map is
    linear; ``host``: the data are NumPy's, SciPy's or Dask's."""
    if first_order is False:
        return LOOP
    n, K, D = problem.n_samples, problem.n_classes, problem.n_features
    if first_order != "auto":
        return route(problem, "n", "auto", linear, host) or PDHG
    many_classes = K >= MANY_CLASSES and n * K >= MANY_ROWS
    wide = K * D >= WIDE and n * K * D >= ENTRIES and (n <= SAMPLES_PER_COLUMN * D or linear and K * D >= IMAGES)
    if regime != "n" or K <= 2 or not (many_classes or wide):
        return LOOP
    if linear and host and K < MANY_CLASSES and K * D >= IMAGES:
        return FISTA_THEN_PDHG if n * K * D >= IMAGE_ENTRIES else LOOP
    return PDHG
