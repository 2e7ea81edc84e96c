"""Formulations of the restricted master (``MRCClassifier(formulation=...)``): the formulation seam.

:class:`Formulation` (:mod:`~mrc_pyomo.formulations.base`) is the interface; ``"paper"`` (the default) has rows
``(i, C)`` (:mod:`~mrc_pyomo.formulations.paper`), ``"compact"`` ``(sample, class)`` pairs
(:mod:`~mrc_pyomo.formulations.compact`).  All have the same optimum ``R*`` (docs/theory.rst, "The linear program") and
the same Lagrangian certificate.
"""

from .base import Formulation, LPBlock, item_keys
from .compact import CompactFormulation
from .paper import PaperFormulation

#: the formulations by name
FORMULATIONS = {"paper": PaperFormulation, "compact": CompactFormulation}
DEFAULT_FORMULATION = "paper"


def register_formulation(formulation_class):
    """Make a :class:`Formulation` subclass selectable by its ``name``; return it (usable as a class decorator)."""
    if not (isinstance(formulation_class, type) and issubclass(formulation_class, Formulation)):
        raise TypeError(f"a formulation must be a subclass of Formulation, got {formulation_class!r}")
    if not isinstance(formulation_class.name, str) or not formulation_class.name:
        raise ValueError(f"{formulation_class.__name__} needs a name (its class attribute 'name')")
    FORMULATIONS[formulation_class.name] = formulation_class
    return formulation_class


def get_formulation(formulation=DEFAULT_FORMULATION):
    """The :class:`Formulation` named ``formulation`` (or the instance given); ``ValueError`` naming the known ones."""
    if isinstance(formulation, Formulation):
        return formulation
    if isinstance(formulation, str) and formulation in FORMULATIONS:
        return FORMULATIONS[formulation]()
    raise ValueError(f"formulation must be one of {sorted(FORMULATIONS)} or a Formulation instance, "
                     f"got {formulation!r}")


__all__ = ["DEFAULT_FORMULATION", "FORMULATIONS", "CompactFormulation", "Formulation", "LPBlock",
           "PaperFormulation", "get_formulation", "item_keys", "register_formulation"]
