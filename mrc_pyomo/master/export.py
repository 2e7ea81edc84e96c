"""The master's Pyomo model written to a file (:meth:`~mrc_pyomo.master.RestrictedMaster.write`, docs/export.rst):
Pyomo's ``ConcreteModel.write``, with readable names by default, MPS that every LP reader takes, and clear errors."""

from pathlib import Path

from pyomo.environ import Objective, minimize
from pyomo.opt import ProblemFormat, WriterFactory
from pyomo.opt.base.formats import guess_format

#: the file extensions that tell Pyomo's writers a format without ``format=``, and the formats they mean
EXTENSIONS = {"lp": "lp", "mps": "mps", "nl": "nl", "gms": "gams", "gams": "gams", "bar": "bar"}
#: the formats of :data:`EXTENSIONS`, which write a file
FILE_FORMATS = ("lp", "mps", "nl", "gams", "bar")
#: what the writer is given unless ``io_options`` says otherwise: the model's own names in the file
DEFAULT_IO_OPTIONS = {"symbolic_solver_labels": True}
#: ... and for an MPS file of a minimisation: no OBJSENSE section, which GLPK's reader refuses ("invalid indicator
#: record"); minimisation is MPS's default sense, so every reader reads the same problem
MPS_IO_OPTIONS = {"skip_objective_sense": True}


def write_pyomo_model(model, path, format=None, io_options=None):
    """Write the Pyomo ``model`` to ``path`` as ``model.write`` does; return ``path``.  ``format``: a name of
    ``pyomo.opt.WriterFactory`` (:data:`FILE_FORMATS`) or a ``ProblemFormat``, None to tell it from the extension
    (:data:`EXTENSIONS`); ``io_options``: the writer's options over :data:`DEFAULT_IO_OPTIONS` (not modified).
    ``ValueError`` for an extension that tells no format, or a format without a writer, names what to pass."""
    guessed = guess_format(str(path))
    if format is None and guessed is None:   # Pyomo's guess is case-sensitive: ".MPS" is MPS too
        format = EXTENSIONS.get(Path(str(path)).suffix.lower().lstrip("."))
    if format is None and guessed is None:
        raise ValueError(f"cannot tell the file format of {str(path)!r} from its extension: name the file with one "
                         f"of {', '.join('.' + e for e in EXTENSIONS)}, or pass format= (one of "
                         f"{', '.join(map(repr, FILE_FORMATS))})")
    if format is not None and WriterFactory(format) is None:
        raise ValueError(f"format={format!r} has no Pyomo writer: pass one of {', '.join(map(repr, FILE_FORMATS))} "
                         f"(Pyomo's writers: {', '.join(sorted(WriterFactory))})")
    if format == "lp" and guessed == ProblemFormat.cpxlp:
        format = None   # the same writer: Pyomo would warn that "lp" is not the format "cpxlp" of the extension
    defaults = dict(DEFAULT_IO_OPTIONS)
    if (format if format is not None else guessed) in ("mps", ProblemFormat.mps) and minimises(model):
        defaults.update(MPS_IO_OPTIONS)
    model.write(str(path), format=format, io_options={**defaults, **(io_options or {})})
    return path


def minimises(model):
    """Whether every active objective of the Pyomo ``model`` is minimised (MPS's default sense)."""
    return all(objective.sense == minimize for objective in model.component_data_objects(Objective, active=True))
