"""How the library words a mistake for its user: the name meant by a misspelt one (:func:`suggestion`), which a
misspelt solver (:mod:`mrc_pyomo.master.solver_backends`) and a misspelt parameter
(:mod:`mrc_pyomo.estimator.parameters`) are both answered with."""

import difflib


def suggestion(name, names, cutoff):
    """The one of ``names`` closest to the misspelt ``name``, in any case, if ``difflib``'s similarity of the two
    is at least ``cutoff``; else None."""
    lowered = {known.lower(): known for known in names}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=cutoff)
    return lowered[close[0]] if close else None
