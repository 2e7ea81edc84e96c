"""A fit one iteration at a time (:meth:`MRCClassifier.steps <mrc_pyomo.MRCClassifier.steps>`), and one fit of an
estimator at a time (:func:`running_fit`).

A fit is a generator of its iterations (:mod:`mrc_pyomo.methods.result`), and :class:`Steps` runs it in the caller's own
thread, only inside ``next()``: between two iterations nothing runs, so the state the caller holds does not change, no
thread is left behind, and a warning points at the caller's line.  The fit writes into its estimator only when it ends
(:func:`mrc_pyomo.estimator.fitted.commit`), so a paused fit leaves the estimator as it was.

How a stepped fit ends:

* the iteration runs out: its attributes are set and its warnings raised;
* ``close()``, a ``break`` out of a ``for`` loop over the steps, or dropping the :class:`Steps`: as a callback's stop
  does (``status_ == "callback"``, the best certified rule so far);
* an error in the fit or in the callback: raised by ``next()``, the estimator left as it was;
* the end of the program with the fit paused: the fit is dropped (:mod:`atexit`), the estimator left as it was.

While a fit of an estimator runs or is paused, another fit of it is refused with a ``RuntimeError``
(:func:`running_fit`): two fits never mix their attributes.
"""

import atexit
import sys
import threading
import weakref
from contextlib import contextmanager

from .fitted import commit

#: the estimators with a fit running or paused, by ``id`` (a fit holds its estimator), each with what runs it: "fit", or
#: a weak reference to a :class:`Steps` (which must stay free to be dropped, and so closed)
_FITTING = {}
_LOCK = threading.Lock()
#: the :class:`Steps` whose fit is paused, dropped unfinished at the end of the program
_PAUSED = weakref.WeakSet()
#: seconds the end of the program waits for an iteration that runs in another thread
EXIT_WAIT = 5.0


def claim(estimator, owner):
    """Mark ``estimator`` as fitted by ``owner`` ("fit" or a :class:`Steps`); ``RuntimeError`` if it is already."""
    with _LOCK:
        holder = _holder(estimator)
        if holder is None:
            _FITTING[id(estimator)] = weakref.ref(owner) if isinstance(owner, Steps) else owner
            return
    refuse(estimator, holder, "fitting the estimator again")


def check_not_fitting(estimator, what):
    """``RuntimeError`` if ``estimator`` is being fitted (:func:`refuse`), ``what`` being what it was asked for."""
    with _LOCK:
        holder = _holder(estimator)
    if holder is not None:
        refuse(estimator, holder, what)


def _holder(estimator):
    """What fits ``estimator`` now (the caller holds the lock): "fit", a :class:`Steps`, or None."""
    holder = _FITTING.get(id(estimator))
    return holder() if isinstance(holder, weakref.ref) else holder


def refuse(estimator, holder, what):
    """Raise the ``RuntimeError`` that refuses ``what`` while ``holder`` fits ``estimator`` (a paused :class:`Steps`, or
    a fit running in another thread or in its own callback)."""
    name = type(estimator).__name__
    if isinstance(holder, Steps):
        raise RuntimeError(f"this {name} has a stepped fit paused after iteration {holder.iteration} (an iterator of "
                           f"its steps(...)): end it with its close(), or let its iteration run out, before {what} "
                           f"(or use a clone: sklearn.base.clone)")
    raise RuntimeError(f"this {name} is being fitted (by another thread, or by its own callback): wait for the fit "
                       f"to end before {what}, or use a clone (sklearn.base.clone)")


def release(estimator):
    """Mark ``estimator`` as no longer being fitted."""
    with _LOCK:
        _FITTING.pop(id(estimator), None)


@contextmanager
def running_fit(estimator):
    """A context in which ``estimator`` is being fitted (:func:`claim`, then :func:`release` however it ends)."""
    claim(estimator, "fit")
    try:
        yield estimator
    finally:
        release(estimator)


class Steps:
    """An iterator over the iterations of a fit of ``estimator`` (module docstring): ``make_fit()`` makes the fit, a
    generator that returns a :class:`~mrc_pyomo.estimator.fitted.Fitted`, and a true return value of ``callback`` stops
    it.  ``next(steps)`` runs the fit to its next iteration; ``close()`` ends it as a callback's stop does,
    ``abandon()`` drops it; ``iteration`` counts the iterations seen; ``iter(steps)``, a ``for`` loop's iterator, closes
    the fit when the loop drops it."""

    def __init__(self, estimator, make_fit, callback=None):
        self.estimator = estimator
        self.iteration = 0
        self._make_fit, self._callback = make_fit, callback
        self._fit, self._stop, self._ended = None, False, False
        self._running = threading.Lock()   # one next() or close() at a time
        self._exiting = False              # the program ends: no further iteration starts

    def __copy__(self):
        raise TypeError("the steps of a fit cannot be copied: they are one fit in progress")

    __deepcopy__ = __reduce_ex__ = lambda self, *args: self.__copy__()

    def __repr__(self):
        where = ("not started" if self._fit is None and not self._ended else "ended" if self._ended
                 else f"running iteration {self.iteration + 1}" if self._running.locked()
                 else f"paused after iteration {self.iteration}")
        return f"<steps of a fit of {type(self.estimator).__name__}: {where}>"

    def __iter__(self):
        return _Loop(self)

    def __next__(self):
        if self._exiting:   # the program ends, and its exit drops the fit: the iteration ends here
            raise StopIteration
        try:
            with self._turn():
                return self._next()
        except RuntimeError:
            if self._exiting:
                raise StopIteration from None
            raise

    def _next(self):
        if self._ended or self._exiting:
            raise StopIteration
        if self._fit is None:
            claim(self.estimator, self)
            _PAUSED.add(self)
            self._fit = self._make_fit()
        try:
            state = self._fit.send(self._stop if self.iteration else None)
            self._stop = bool(self._callback(state)) if self._callback is not None else False
        except StopIteration as end:
            self._commit(end.value)
            raise StopIteration from None
        except BaseException:
            self._drop()
            raise
        self.iteration += 1
        return state

    def close(self):
        """End the fit as a callback's stop does and set the estimator's attributes; nothing if it has ended or never
        started, or once the program ends."""
        if self._exiting:
            return
        try:
            with self._turn():
                self._close()
        except RuntimeError:
            if not self._exiting:
                raise

    def _close(self):
        if self._ended or self._fit is None:
            self._ended = True
            return
        try:
            while True:
                self._fit.send(True)
        except StopIteration as end:
            self._commit(end.value)
        except BaseException:
            self._drop()
            raise

    @contextmanager
    def _turn(self, timeout=None):
        """The context of one ``next()``, ``close()`` or ``abandon()``: ``RuntimeError`` if one is running (in another
        thread, or in the callback) and has not ended after ``timeout`` seconds (None: at once)."""
        if not (self._running.acquire(blocking=False) if timeout is None else self._running.acquire(timeout=timeout)):
            raise RuntimeError("the fit is running its next iteration already (in another thread, or this is its "
                               "callback): a fit runs one step at a time")
        try:
            yield
        finally:
            self._running.release()

    def _commit(self, fitted):
        """The fit ended with ``fitted``: write it into the estimator (:func:`~mrc_pyomo.estimator.fitted.commit`)."""
        self._ended = True
        _PAUSED.discard(self)
        try:
            commit(self.estimator, fitted)
        finally:
            release(self.estimator)

    def stop_starting(self):
        """Let no further iteration start (the end of the program): a ``next()`` then ends the iteration."""
        self._exiting = True

    def abandon(self, timeout=None):
        """Drop the fit unfinished, nothing of it written, as at the end of the program; ``timeout``: seconds to wait
        for an iteration running in another thread (None: ``RuntimeError`` if one is)."""
        with self._turn(timeout):
            self._drop()

    def _drop(self):
        if self._ended:
            return
        self._ended = True
        _PAUSED.discard(self)
        try:
            if self._fit is not None:
                self._fit.close()
        finally:
            release(self.estimator)

    def __del__(self):
        if self._fit is not None and not self._ended:
            if sys.is_finalizing():
                self._drop()
            else:
                self.close()


class _Loop:
    """The iterator of a ``for`` loop over a :class:`Steps`: it owns the fit, and closes it when it is dropped (the
    loop ended, ``break``, an exception out of the loop)."""

    def __init__(self, steps):
        self._steps = steps

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._steps)

    def __del__(self):
        if not sys.is_finalizing():
            self._steps.close()


@atexit.register
def _drop_paused_fits():
    """At the end of the program, drop every paused fit unfinished: nothing would read its result.  One running its next
    iteration in another (daemon) thread is dropped if that iteration ends within :data:`EXIT_WAIT` seconds (a solver
    killed inside a solve can abort the process)."""
    for steps in list(_PAUSED):
        steps.stop_starting()
        try:
            steps.abandon(timeout=EXIT_WAIT)
        except RuntimeError:
            pass
