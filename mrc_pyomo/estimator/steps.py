"""A fit one iteration at a time, for watching the loop: :func:`stepped` turns a fit that calls a callback after
each iteration into an iterator over those iterations (:meth:`MRCClassifier.steps
<mrc_pyomo.MRCClassifier.steps>`).

The fit runs in a thread of its own, which waits inside the callback until the next iteration is asked for: while
the caller holds an iteration's :class:`~mrc_pyomo.methods.ccg.record.IterationState` (its master, solution,
rows and features added and removed, violations, certified interval), nothing changes it.  Stopping early
(``close()``, ``break`` out of a ``for`` loop, or dropping the iterator) makes the callback ask the loop to
stop; the fit then ends as a fit stopped by its callback does (``status_ == "callback"``, the best certified
rule so far).  An error in the fit is raised by the iterator (by ``close()`` if it came while the fit stopped).
"""

import queue
import threading


def stepped(fit, callback=None):
    """Iterate over the iterations of ``fit(step)``, a function that fits and calls ``step(state)`` after each
    iteration (the loop stops when it returns a true value); ``callback``: the user's own, also called (the loop
    stops if it says so).  Yields each ``state``; returns when the fit has ended."""
    states, answers = queue.Queue(maxsize=1), queue.Queue(maxsize=1)

    def step(state):
        stop = bool(callback(state)) if callback is not None else False
        states.put(("state", state))
        return answers.get() or stop

    def run():
        try:
            fit(step)
        except BaseException as error:   # raised again by the iterator, in the caller's thread
            states.put(("error", error))
        else:
            states.put(("done", None))

    thread = threading.Thread(target=run, name="mrc_pyomo fit steps", daemon=True)
    thread.start()
    ended = False
    try:
        while True:
            kind, value = states.get()
            if kind != "state":
                ended = True
                if kind == "error":
                    raise value
                return
            stop = True
            try:
                yield value
                stop = False
            finally:
                answers.put(stop)
    finally:
        error = None
        while not ended:   # stopped early: every later iteration is told to stop, and the fit ends
            kind, value = states.get()
            if kind == "state":
                answers.put(True)
            else:
                ended, error = True, value
        thread.join()
        if error is not None:   # the fit failed while it stopped: say so rather than leave it unfitted silently
            raise error
