"""Tests of the Python binding (run: /usr/bin/python3 -m pytest python/tests)."""

import gc
import math
import shutil
import struct
import subprocess
import sys

import numpy as np
import pytest

import stiction
from conftest import LONG, ROOT, rss_kib


def ctrl_at(step, nu):
    """The controls of internal/pytraj: exact binary fractions."""
    return [((7 * step + 3 * k) % 11 - 5) / 10 for k in range(nu)]


def bits(x):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


@pytest.mark.skipif(shutil.which("go") is None, reason="the Go toolchain is not on PATH")
def test_trajectory_matches_go(hopper):
    """Python and Go step the hopper with the same controls to bit-identical q and v."""
    steps = 300
    out = subprocess.run(["go", "run", "./internal/pytraj", hopper, str(steps)], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    m = stiction.load(hopper)
    d = m.make_data()
    moved = False
    for s in range(steps):
        d.ctrl[:] = ctrl_at(s, m.nu)
        d.step()
        got = " ".join(bits(x) for x in list(d.qpos) + list(d.qvel))
        assert got == out[s].strip(), "step %d differs from Go" % (s + 1)
        moved = moved or d.qvel[2] != 0
    assert moved


def test_views_alias_engine_memory(hopper):
    m = stiction.load(hopper)
    d = m.make_data()
    assert isinstance(d.qpos, np.ndarray) and d.qpos.shape == (m.nq,)
    q = d.qpos
    d.step(5)
    assert q is d.qpos and np.array_equal(q, d.qpos)
    j = d.joint("thigh_joint")
    assert np.shares_memory(j.qpos, d.qpos)
    j.qpos[0] = 0.3  # written through the joint's view ...
    assert d.qpos[m.joint("thigh_joint").qadr] == 0.3  # ... is the engine's coordinate
    s = d.snapshot()
    d.step(20)
    after = d.qpos.copy()
    d.restore(s)
    assert d.qpos[m.joint("thigh_joint").qadr] == 0.3
    d.step(20)
    assert np.array_equal(d.qpos, after)
    # Writing qvel changes the next step.
    d2 = m.make_data()
    d2.qvel[0] = 1.0
    d2.step()
    assert d2.qpos[0] > 0


def test_names_and_model_info(hopper):
    m = stiction.load(hopper)
    assert m.body("torso").mass > 0
    assert m.joint("foot_joint").nv == 1
    assert m.actuator("actuator1") == 1
    d = m.make_data()
    d.step(200)
    assert len(d.contacts()) > 0, "the hopper lands on its floor within 0.4 s"
    c = d.contacts()[0]
    assert abs(math.hypot(*c.normal) - 1) < 1e-12
    assert d.stats.step == 200 and d.stats.momentum_error >= 0
    assert d.xpose.shape == (m.nbody, 7)
    np.testing.assert_array_equal(d.body("torso").xpos, d.xpose[1, :3])


def test_checkpoint_file(hopper, tmp_path):
    m = stiction.load(hopper)
    d = m.make_data()
    d.step(50)
    d.save(tmp_path / "ck")
    d.step(50)
    ref = d.qpos.copy()
    d2 = m.make_data()
    d2.load(tmp_path / "ck")
    d2.step(50)
    assert np.array_equal(d2.qpos, ref)


def test_reset(hopper):
    m = stiction.load(hopper)
    d = m.make_data()
    q0 = d.qpos.copy()
    d.ctrl[:] = 0.5
    d.step(30)
    d.reset()
    assert np.array_equal(d.qpos, q0) and d.time == 0 and np.all(d.ctrl == 0)


def test_batch_matches_serial(ant):
    m = stiction.load(ant)
    n = 5
    b = m.make_batch(n, workers=2)
    serial = [m.make_data() for _ in range(n)]
    for i in range(n):
        b.qvel[i, :] = 0.1 * i
        serial[i].qvel[:] = 0.1 * i
    for s in range(25):
        ctrl = np.array([[((7 * s + 3 * k + i) % 11 - 5) / 10 for k in range(m.nu)] for i in range(n)])
        b.step(ctrl)
        for i in range(n):
            serial[i].ctrl[:] = ctrl[i]
            serial[i].step()
    for i in range(n):
        assert np.array_equal(b.qpos[i], serial[i].qpos) and np.array_equal(b.qvel[i], serial[i].qvel)
        assert np.shares_memory(b.data(i).qpos, b.qpos)
    assert not np.array_equal(b.qpos[0], b.qpos[1])


def test_env(hopper):
    env = stiction.Env(hopper, reward_fn=lambda d, a: d.qvel[0], frame_skip=4, max_steps=3, reset_noise=0.005)
    obs, info = env.reset(seed=1)
    assert obs.shape == (env.model.nq + env.model.nv,)
    for _ in range(3):
        obs, r, term, trunc, info = env.step(np.zeros(env.model.nu))
    assert trunc and not term and info["time"] == pytest.approx(12 * env.model.dt)
    o1, _ = env.reset(seed=7)
    o2, _ = env.reset(seed=7)
    assert np.array_equal(o1, o2)


def _bad_inputs(hopper, tmp_path):
    """(name, callable) pairs, each of which must raise a StictionError."""
    m = stiction.load(hopper)
    d = m.make_data()
    freed = m.make_data()
    freed.close()
    b = m.make_batch(2, workers=1)
    bad_xml = tmp_path / "bad.xml"
    bad_xml.write_text("<mujoco><worldbody><body><geom type='sphere' size='-1'/></body></worldbody></mujoco>")
    bad_field = tmp_path / "bad.yaml"
    bad_field.write_text("name: x\ndt: 0.01\nduration: 1\nbodiez: []\n")

    def nan_ctrl():
        d.ctrl[0] = float("nan")
        try:
            d.step()
        finally:
            d.ctrl[0] = 0

    def raw_freed_handle():
        h = stiction.Model(hopper)
        handle = h._h
        h.close()
        stiction._lib.call("model_free", handle)

    return [
        ("missing file", lambda: stiction.load(str(tmp_path / "missing.xml"))),
        ("unknown embedded scene", lambda: stiction.load("no-such-scene")),
        ("malformed MJCF", lambda: stiction.load(str(bad_xml))),
        ("unknown YAML field", lambda: stiction.load(str(bad_field))),
        ("bad override", lambda: stiction.load(hopper, sets=["no.such.field=3"])),
        ("override not a string", lambda: stiction.load(hopper, sets=[3])),
        ("name not a string", lambda: stiction.load(42)),
        ("NaN in ctrl", nan_ctrl),
        ("NaN in batch ctrl", lambda: b.step(np.full((2, m.nu), np.nan))),
        ("wrong ctrl shape", lambda: b.step(np.zeros((3, m.nu)))),
        ("wrong ctrl dtype", lambda: b.step(np.array([["a"] * m.nu] * 2))),
        ("Env action shape", lambda: stiction.Env(m).step(np.zeros(m.nu + 1))),
        ("closed data", lambda: freed.step()),
        ("freed handle in C", raw_freed_handle),
        ("unknown joint", lambda: d.joint("knee")),
        ("unknown body", lambda: m.body("head")),
        ("index out of range", lambda: m.joint(99)),
        ("unknown sensor", lambda: d.sensor("accel")),
        ("unknown keyframe", lambda: d.reset("home")),
        ("negative steps", lambda: d.step(-1)),
        ("steps not an int", lambda: d.step(1.5)),
        ("zero batch copies", lambda: m.make_batch(0)),
        ("negative workers", lambda: m.make_batch(2, workers=-1)),
        ("missing checkpoint", lambda: d.load(str(tmp_path / "none.ck"))),
        ("checkpoint of another model", lambda: (stiction.load("pendulum").make_data().save(str(tmp_path / "p.ck")), d.load(str(tmp_path / "p.ck")))),
        ("restore a non-snapshot", lambda: d.restore("x")),
        ("batch copy out of range", lambda: b.data(2)),
    ]


def test_bad_inputs_raise(hopper, tmp_path):
    """Every kind of bad input raises a StictionError with a message; the state is unchanged."""
    cases = _bad_inputs(hopper, tmp_path)
    assert len(cases) >= 15
    for name, f in cases:
        with pytest.raises(stiction.StictionError) as e:
            f()
        assert str(e.value), name


def test_process_survives_bad_calls(hopper, tmp_path):
    """Raw C calls with garbage handles, NULL pointers and bad kinds return codes in a
    child process that then exits normally."""
    code = r"""
import ctypes, stiction
from stiction import _lib
L = _lib.lib
out = ctypes.c_int64()
rcs = [L.stiction_data_step(123456, 1), L.stiction_model_free(-1), L.stiction_batch_step(0, None, 1),
       L.stiction_model_load(None, None, 0, 0, ctypes.byref(out)),
       L.stiction_model_load(b"pendulum", None, -3, 0, ctypes.byref(out)),
       L.stiction_model_load(b"pendulum", None, 0, 99, ctypes.byref(out))]
m = stiction.load("pendulum")
rcs += [L.stiction_model_name(m._h, 9, 0, ctypes.byref(ctypes.c_char_p())),
        L.stiction_model_sizes(m._h, None), L.stiction_data_array(m._h, 0, None, None),
        L.stiction_model_joint(m._h, 1000, None)]
assert all(rc != 0 for rc in rcs), rcs
print("survived", len(rcs))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    assert "survived 10" in r.stdout


def test_memory_flat_over_steps():
    """RSS does not grow over 10^5 pendulum steps (10^6 with STICTION_LONG=1)."""
    m = stiction.load("pendulum")
    d = m.make_data()
    d.step(10000)
    before = rss_kib()
    n = 1000000 if LONG else 100000
    for _ in range(n // 1000):
        d.step(1000)
    grown = rss_kib() - before
    print("RSS growth over %d steps: %d KiB" % (n, grown))
    assert grown < 2048, "RSS grew by %d KiB over %d steps" % (grown, n)


def test_memory_flat_over_load_free():
    """RSS does not grow over 10^3 load / make_data / step / free cycles (10^4 with STICTION_LONG=1)."""
    def cycle():
        m = stiction.load("pendulum")
        d = m.make_data()
        d.step(10)
        b = m.make_batch(2, workers=1)
        b.step()
        del d, b
        m.close()

    for _ in range(200):
        cycle()
    gc.collect()
    before = rss_kib()
    n = 10000 if LONG else 1000
    for _ in range(n):
        cycle()
    gc.collect()
    grown = rss_kib() - before
    print("RSS growth over %d cycles: %d KiB" % (n, grown))
    assert grown < 8192, "RSS grew by %d KiB over %d cycles" % (grown, n)


def test_sensors_read_the_state():
    """The finger's jointpos and jointvel sensors read its qpos and qvel, by name."""
    m = stiction.load(str(ROOT / "internal" / "mjref" / "testdata" / "dm_control" / "suite" / "finger.xml"))
    d = m.make_data()
    d.ctrl[:] = 0.3
    d.step(50)
    j = d.joint("distal")
    assert j.qvel[0] != 0
    assert d.sensor("distal")[0] == j.qpos[0]
    assert d.sensor("distal_velocity")[0] == j.qvel[0]
    assert len(d.sensor("tip")) == 3 and d.sensordata.shape == (m.nsensordata,)


def test_docs_snippets_run():
    """Every Python block of docs/PYTHON.md runs (from the repository root)."""
    import os
    import re
    src = (ROOT / "docs" / "PYTHON.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", src, re.S)
    assert len(blocks) >= 7
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for b in blocks:
            exec(b, {"np": np, "stiction": stiction})
    finally:
        os.chdir(cwd)


def test_keyframe_reset():
    """Menagerie's iiwa: reset("home") sets the keyframe's qpos and ctrl, and the servos hold it."""
    m = stiction.load("embedded://mujoco_menagerie/kuka_iiwa_14/scene.xml")
    d = m.make_data()
    d.reset("home")
    home = [0, 0.785398, 0, -1.5708, 0, 0, 0]
    assert list(d.qpos) == home and list(d.ctrl) == home and d.time == 0
    d.step(200)
    assert np.max(np.abs(d.qpos - home)) < 0.05


def test_attribute_assignment_copies_into_the_view(hopper):
    """data.ctrl = u writes the engine's memory (the view stays the same object) and checks u."""
    m = stiction.load(hopper)
    d = m.make_data()
    view = d.ctrl
    d.ctrl = [0.1, 0.2, 0.3]
    assert d.ctrl is view and list(view) == [0.1, 0.2, 0.3]
    with pytest.raises(stiction.InvalidArgument):
        d.qpos = np.zeros(m.nq + 1)
    with pytest.raises(stiction.InvalidArgument):
        d.qvel = np.full(m.nv, np.inf)


def test_works_without_numpy(hopper):
    """With numpy unimportable, the arrays are ctypes arrays over the engine's memory."""
    code = r"""
import sys
sys.modules["numpy"] = None
import stiction
m = stiction.load(%r)
d = m.make_data()
d.ctrl = [0.1, 0.2, 0.3]
d.step(5)
assert type(d.qpos).__name__.startswith("c_double_Array") and d.qpos[1] > 1
b = m.make_batch(2, 1)
b.step([[0, 0, 0], [0.1, 0.1, 0.1]])
assert len(b.qpos) == 2 * m.nq
env = stiction.Env(m)
obs, _ = env.reset()
assert len(obs) == m.nq + m.nv
try:
    b.step([[0, 0], [0, 0]])
except stiction.InvalidArgument:
    print("ok")
""" % hopper
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


C_PRELUDE = r'''#include <stdio.h>
#include <stdlib.h>
#include "stiction.h"
static void check(int rc, const char *what) { if (rc) { fprintf(stderr, "%s: %s\n", what, stiction_last_error()); exit(1); } }
void snippets(void) {
    int64_t m = 1, d = 2, b = 3; int j = 0; stiction_sizes sz = {0}; double *qpos = 0;
    (void)m; (void)d; (void)b; (void)j; (void)sz; (void)qpos;
'''


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_c_api_doc_snippets_compile(tmp_path):
    """Every C snippet of docs/C_API.md compiles against stiction.h (each in its own block)."""
    import re
    blocks = re.findall(r"```c\n(.*?)```", (ROOT / "docs" / "C_API.md").read_text(), re.S)
    assert len(blocks) >= 20
    src = tmp_path / "snippets.c"
    src.write_text(C_PRELUDE + "".join("    {\n" + b + "    }\n" for b in blocks) + "}\n")
    r = subprocess.run(["cc", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-variable",
                        "-Wno-unused-but-set-variable", "-I" + str(ROOT / "capi"), str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
