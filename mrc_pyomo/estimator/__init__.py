"""The scikit-learn face of the library, a shell around the prepared problem and the methods: :class:`MRCClassifier`
(:mod:`~mrc_pyomo.estimator.classifier`) with the data prepared and the method planned
(:mod:`~mrc_pyomo.estimator.fitting`), a fit one iteration at a time (:mod:`~mrc_pyomo.estimator.steps`), scikit-learn's
callbacks (:mod:`~mrc_pyomo.estimator.callbacks`), the rule
(:mod:`~mrc_pyomo.estimator.rule`), the parameters (:mod:`~mrc_pyomo.estimator.parameters`), the fitted attributes
(:mod:`~mrc_pyomo.estimator.fitted`) and the warm start (:mod:`~mrc_pyomo.estimator.warm`); :func:`mrc_path` and
:class:`RegularizationPath` (:mod:`~mrc_pyomo.estimator.path`); :class:`MRCClassifierCV`
(:mod:`~mrc_pyomo.estimator.cv`) and its folds (:mod:`~mrc_pyomo.estimator.folds`).
"""
