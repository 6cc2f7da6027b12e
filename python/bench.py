"""Overhead of the Python binding over the Go loop, measured in one process.

    python3 python/bench.py          # after the install command (README.md)

The Go loop is the library's own: data.step(n) and batch.step(None, n)
take n steps inside Go (one call through ctypes). The Python loop makes n
calls of data.step() (or batch.step(ctrl) with a (64, nu) array). The two
are timed alternately, best of several rounds each, so that a machine
shared with other work slows both alike.
"""

import os
import time

import numpy as np

import stiction

ANT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "internal", "mjref", "testdata",
                   "gymnasium", "ant.xml")


def timed(f, clock):
    t = clock()
    f()
    return clock() - t


def compare(python_loop, go_loop, rounds, clock=time.perf_counter):
    """Best times of the two loops, run alternately."""
    py, go = [], []
    for _ in range(rounds):
        py.append(timed(python_loop, clock))
        go.append(timed(go_loop, clock))
    return min(py), min(go)


def pendulum(n=20000, rounds=7):
    """µs per step of the 1-DOF pendulum: Python loop, Go loop, in CPU
    time of the calling thread (which runs the Go code too): on a shared
    machine, wall time measures the other processes as well."""
    d = stiction.load("pendulum").make_data()
    d.step(1000)

    def python_loop():
        for _ in range(n):
            d.step()
    py, go = compare(python_loop, lambda: d.step(n), rounds, time.thread_time)
    return py / n * 1e6, go / n * 1e6


def ant_batch(workers, steps=40, rounds=3):
    """Env steps/s of 64 ants: Python batch.step(ctrl) per step, Go loop."""
    m = stiction.load(ANT)
    b = m.make_batch(64, workers)
    ctrl = np.array([[np.sin(i + 0.7 * k) * 0.8 for k in range(m.nu)] for i in range(64)])
    b.step(ctrl, 100)  # the ants land

    def python_loop():
        for _ in range(steps):
            b.step(ctrl)
    py, go = compare(python_loop, lambda: b.step(None, steps), rounds)
    return 64 * steps / py, 64 * steps / go


def batch_call_overhead(n=2000):
    """µs of thread CPU time per batch.step(ctrl, 0) on 64 ants: the
    binding's work per step (checking and copying ctrl, the call) without
    the engine's."""
    m = stiction.load(ANT)
    b = m.make_batch(64, 1)
    ctrl = np.zeros((64, m.nu))

    def loop():
        for _ in range(n):
            b.step(ctrl, 0)
    return min(timed(loop, time.thread_time) for _ in range(5)) / n * 1e6


if __name__ == "__main__":
    py, go = pendulum()
    print("pendulum: Python loop %.2f µs/step, Go loop %.2f µs/step (thread CPU time), added %.2f µs" % (py, go, py - go))
    for w in (1, 2):
        py, go = ant_batch(w)
        print("64 ants, %d workers: Python batch.step(ctrl) %.0f env steps/s, Go loop %.0f (%.0f%%)"
              % (w, py, go, 100 * py / go))
    print("batch.step(ctrl, 0) on 64 ants: %.1f µs per call (thread CPU time)" % batch_call_overhead())
