"""``python -m mrc_pyomo.cli``: the ``mrc-pyomo`` command (:func:`mrc_pyomo.cli.main.main`)."""

import sys

from .main import main

sys.exit(main())
