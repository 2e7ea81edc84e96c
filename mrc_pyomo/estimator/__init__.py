"""The scikit-learn face of the library, a shell around the prepared problem and the methods:

* :mod:`~mrc_pyomo.estimator.classifier`: :class:`MRCClassifier` (validate, prepare, solve, set attributes);
* :mod:`~mrc_pyomo.estimator.fitting`: what a fit and a path share: the data prepared, the method planned;
* :mod:`~mrc_pyomo.estimator.steps`: a fit one iteration at a time, and one fit of an estimator at a time;
* :mod:`~mrc_pyomo.estimator.rule`: ``predict``, ``predict_proba``, ``decision_function``, ``coef_``;
* :mod:`~mrc_pyomo.estimator.parameters`: the parameters' constraints and the settings they make;
* :mod:`~mrc_pyomo.estimator.fitted`: the fitted attributes of a method's result, set in one step;
* :mod:`~mrc_pyomo.estimator.path`: :func:`mrc_path` and :class:`RegularizationPath`;
* :mod:`~mrc_pyomo.estimator.warm`: the start of a warm fit (``warm_start=True``);
* :mod:`~mrc_pyomo.estimator.cv`: :class:`MRCClassifierCV`;
* :mod:`~mrc_pyomo.estimator.folds`: its folds' paths and scores, and where they run.
"""
