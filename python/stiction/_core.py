"""Models, data and batches over the C API."""

import collections
import ctypes
import math
import os

from . import _lib
from ._lib import call
from .errors import HandleError, InvalidArgument

try:
    import numpy as np
except ImportError:  # numpy is optional
    np = None

_data_step = _lib.lib.stiction_data_step

Stats = collections.namedtuple(
    "Stats", "step time contacts iterations status momentum_error complementarity_error "
             "kinetic_energy potential_energy max_penetration")
Stats.__doc__ = "Statistics of the last step (stiction_stats); step and time count from the initial state."

Contact = collections.namedtuple("Contact", "body_a body_b geom_a geom_b pos normal dist force")
Contact.__doc__ = ("A contact point of the last step: bodies (-1 the world) and geometries, world point, "
                   "unit normal from A to B, signed distance (< 0 in penetration) and the force on B (N).")

JointInfo = collections.namedtuple("JointInfo", "name id body parent qadr nq vadr nv")
JointInfo.__doc__ = "A joint: its body, parent body (-1 the world) and its slices of qpos and qvel."

BodyInfo = collections.namedtuple("BodyInfo", "name id mass com joint")
BodyInfo.__doc__ = "A body: mass (kg), centre of mass in the body frame (m) and its joint (-1: welded)."

SensorInfo = collections.namedtuple("SensorInfo", "name id adr dim")
SensorInfo.__doc__ = "A sensor: its values are sensordata[adr:adr+dim]."


class _Owner:
    """Owns a C data or batch handle and frees it when collected. Data,
    Batch and every array view of their memory refer to it (and it refers
    to none of them), so the memory lives exactly as long as one of them
    and no reference cycle delays its release."""

    def __init__(self, free, h, keep=None):
        self.free, self.h, self.keep = free, h, keep

    def __del__(self):
        if self.free and self.h:
            try:
                call(self.free, self.h)
            except Exception:
                pass


def _view(owner, ptr, n, shape=None):
    """An array over n doubles at ptr that keeps owner alive: a numpy view
    when numpy is present, else a ctypes array."""
    addr = ctypes.cast(ptr, ctypes.c_void_p).value
    buf = (ctypes.c_double * n).from_address(addr)
    buf._owner = owner  # the memory lives as long as its owner
    if np is None:
        return buf
    if n == 0:
        return np.zeros(shape or 0)
    a = np.frombuffer(buf, dtype=np.float64)
    return a.reshape(shape) if shape else a


def _copy(a):
    return a.copy() if np is not None else list(a)


class Model:
    """A loaded model or scene. Make simulations of it with make_data() and
    make_batch(n).

    Attributes: nq, nv, nu (positions, velocities, actuators), nbody,
    njoint, nsensor, nsensordata, dt (s); the names of its bodies, joints,
    actuators, sensors and keyframes (body_names, joint_names, ...).
    """

    def __init__(self, name, sets=(), ground=False):
        if not isinstance(name, (str, os.PathLike)):
            raise InvalidArgument("stiction.load: name must be a str or path, not %s" % type(name).__name__)
        sets = list(sets)
        for s in sets:
            if not isinstance(s, str):
                raise InvalidArgument("stiction.load: overrides must be 'key=value' strings, not %r" % (s,))
        arr = (ctypes.c_char_p * max(len(sets), 1))(*[s.encode() for s in sets])
        h = ctypes.c_int64()
        call("model_load", os.fsencode(name), arr, len(sets), _lib.GROUND if ground else 0, ctypes.byref(h))
        self._h = h.value
        self.name = os.fspath(name)
        sz = _lib.Sizes()
        call("model_sizes", self._h, ctypes.byref(sz))
        self.nq, self.nv, self.nu, self.nbody = sz.nq, sz.nv, sz.nu, sz.nbody
        self.njoint, self.nsensor, self.nsensordata, self.nkeyframe = sz.njoint, sz.nsensor, sz.nsensordata, sz.nkeyframe
        self.dt = sz.dt
        self.body_names = self._names(_lib.BODY, sz.nbody)
        self.joint_names = self._names(_lib.JOINT, sz.njoint)
        self.actuator_names = self._names(_lib.ACTUATOR, sz.nu)
        self.sensor_names = self._names(_lib.SENSOR, sz.nsensor)
        self.keyframe_names = self._names(_lib.KEYFRAME, sz.nkeyframe)
        self._joints = [self._joint(i) for i in range(sz.njoint)]
        self._bodies = [self._body(i) for i in range(sz.nbody)]
        self._sensors = [self._sensor(i) for i in range(sz.nsensor)]

    def _names(self, kind, n):
        out, p = [], ctypes.c_char_p()
        for i in range(n):
            call("model_name", self._h, kind, i, ctypes.byref(p))
            out.append(p.value.decode())
        return out

    def _joint(self, i):
        j = _lib.JointInfo()
        call("model_joint", self._h, i, ctypes.byref(j))
        return JointInfo(self.joint_names[i], i, j.body, j.parent, j.qadr, j.nq, j.vadr, j.nv)

    def _body(self, i):
        b = _lib.BodyInfo()
        call("model_body", self._h, i, ctypes.byref(b))
        return BodyInfo(self.body_names[i], i, b.mass, tuple(b.com), b.joint)

    def _sensor(self, i):
        s = _lib.SensorInfo()
        call("model_sensor", self._h, i, ctypes.byref(s))
        return SensorInfo(self.sensor_names[i], i, s.adr, s.dim)

    @staticmethod
    def _find(kind, names, key):
        if isinstance(key, bool) or not isinstance(key, (int, str)):
            raise InvalidArgument("%s: want a name or an index, not %r" % (kind, key))
        if isinstance(key, int):
            if not 0 <= key < len(names):
                raise InvalidArgument("no %s %d (the model has %d)" % (kind, key, len(names)))
            return key
        try:
            return names.index(key)
        except ValueError:
            plural = "bodies" if kind == "body" else kind + "s"
            raise InvalidArgument("no %s named %r (%s: %s)" % (kind, key, plural, ", ".join(names) or "none")) from None

    def joint(self, key):
        """The JointInfo of a joint, by name or index."""
        return self._joints[self._find("joint", self.joint_names, key)]

    def body(self, key):
        """The BodyInfo of a body, by name or index."""
        return self._bodies[self._find("body", self.body_names, key)]

    def sensor(self, key):
        """The SensorInfo of a sensor, by name or index."""
        return self._sensors[self._find("sensor", self.sensor_names, key)]

    def actuator(self, key):
        """The index of an actuator in ctrl, by name (or index)."""
        return self._find("actuator", self.actuator_names, key)

    def make_data(self):
        """A new simulation of the model, at its initial state."""
        return Data(self)

    def make_batch(self, n, workers=0):
        """n copies of the model stepped together on workers threads (0: all cores)."""
        return Batch(self, n, workers)

    def close(self):
        """Frees the model (its data and batches stay usable)."""
        if self._h:
            h, self._h = self._h, 0
            call("model_free", h)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<stiction.Model %s: nq=%d nv=%d nu=%d bodies=%d>" % (self.name, self.nq, self.nv, self.nu, self.nbody)


def load(name, sets=(), ground=False):
    """Loads a model or scene: a robot file (.xml MJCF, .urdf, .sdf), a YAML
    scene file, an embedded scene name ("pendulum") or an embedded://...
    model, with "key=value" overrides (as stiction run --set) and an added
    ground plane for robot files (ground=True). Raises LoadError with the
    engine's message (file, line, field)."""
    return Model(name, sets, ground)


class _JointView:
    """A joint of a Data: qpos and qvel are views of its coordinates."""

    def __init__(self, data, info):
        self._data, self.info = data, info

    @property
    def qpos(self):
        """The joint's coordinates (writable view)."""
        i = self.info
        return self._data.qpos[i.qadr:i.qadr + i.nq]

    @property
    def qvel(self):
        """The joint's velocities (writable view)."""
        i = self.info
        return self._data.qvel[i.vadr:i.vadr + i.nv]


class _BodyView:
    """A body of a Data: its world pose."""

    def __init__(self, data, info):
        self._data, self.info = data, info

    @property
    def xpos(self):
        """World position of the body origin (copy)."""
        return self._data.xpose[self.info.id][:3]

    @property
    def xquat(self):
        """World orientation, quaternion w x y z (copy)."""
        return self._data.xpose[self.info.id][3:]


class Data:
    """One simulation of a model: its state, controls and outputs.

    qpos, qvel and ctrl are views of the engine's memory (numpy arrays when
    numpy is present), valid as long as this object: write them between
    steps. ctrl holds one input per actuator (model.actuator_names), given
    to the actuators at every step. Computed outputs (actuator_force,
    sensordata, xpose, contacts) are copies taken when read.
    """

    def __init__(self, model, _handle=None, _owner=None):
        self.model = model
        if _handle is None:
            h = ctypes.c_int64()
            call("data_make", model._h, ctypes.byref(h))
            _handle, _owner = h.value, _Owner("data_free", h.value)
        self._mem = _owner  # a batch's owner for a copy of the batch
        self._h = _handle
        self._qpos = self._array(_lib.QPOS)
        self._qvel = self._array(_lib.QVEL)
        self._ctrl = self._array(_lib.CTRL)

    @property
    def qpos(self):
        """Generalized positions: a writable view of the engine's memory.
        Assigning to it (data.qpos = q) copies q into the view."""
        return self._qpos

    @qpos.setter
    def qpos(self, value):
        _assign(self._qpos, value, (self.model.nq,), "qpos")

    @property
    def qvel(self):
        """Generalized velocities: a writable view of the engine's memory."""
        return self._qvel

    @qvel.setter
    def qvel(self, value):
        _assign(self._qvel, value, (self.model.nv,), "qvel")

    @property
    def ctrl(self):
        """Actuator inputs of the next steps: a writable view of the engine's memory."""
        return self._ctrl

    @ctrl.setter
    def ctrl(self, value):
        _assign(self._ctrl, value, (self.model.nu,), "ctrl")

    def _handle(self):
        if not self._h:
            raise HandleError("stiction: this data was closed")
        return self._h

    def _array(self, which, shape=None):
        p, n = ctypes.POINTER(ctypes.c_double)(), ctypes.c_int()
        call("data_array", self._handle(), which, ctypes.byref(p), ctypes.byref(n))
        return _view(self._mem, p, n.value, shape)

    def step(self, n=1):
        """Takes n steps with the current ctrl. Raises StepError (state
        unchanged) or InvalidArgument for a ctrl that is not finite."""
        if n.__class__ is not int or n < 0:
            raise InvalidArgument("step: n must be an int >= 0, not %r" % (n,))
        rc = _data_step(self._h or self._handle(), n)
        if rc:
            _lib.fail(rc)

    def reset(self, keyframe=None):
        """Returns to the initial state and controls, or to a keyframe's."""
        if keyframe is None:
            call("data_reset", self._handle())
        else:
            call("data_reset_keyframe", self._handle(), str(keyframe).encode())

    @property
    def time(self):
        """Simulated time, s."""
        return self.stats.time

    @property
    def stats(self):
        """Statistics of the last step (Stats), gathered at this call (steps do not
        gather them): read them before writing qpos or qvel, whose state the energies describe."""
        s = _lib.Stats()
        call("data_stats", self._handle(), ctypes.byref(s))
        return Stats(s.step, s.time, s.contacts, s.iterations, s.status, s.momentum_error,
                     s.complementarity_error, s.kinetic_energy, s.potential_energy, s.max_penetration)

    @property
    def actuator_force(self):
        """Each actuator's force over the last step (copy)."""
        return _copy(self._array(_lib.ACTUATOR_FORCE))

    @property
    def sensordata(self):
        """Every sensor's values at the current state (copy)."""
        return _copy(self._array(_lib.SENSORDATA))

    def sensor(self, key):
        """The values of one sensor, by name or index (copy)."""
        s = self.model.sensor(key)
        return self.sensordata[s.adr:s.adr + s.dim]

    @property
    def xpose(self):
        """World poses of the bodies, one row per body: x y z qw qx qy qz (copy)."""
        a = _copy(self._array(_lib.XPOSE, (self.model.nbody, 7) if np is not None else None))
        if np is None:
            return [a[7 * i:7 * i + 7] for i in range(self.model.nbody)]
        return a

    def joint(self, key):
        """A joint by name or index; .qpos and .qvel are views."""
        return _JointView(self, self.model.joint(key))

    def body(self, key):
        """A body by name or index; .xpos and .xquat are its world pose."""
        return _BodyView(self, self.model.body(key))

    def contacts(self):
        """The contact points of the last step (a list of Contact)."""
        p, n = ctypes.POINTER(_lib.Contact)(), ctypes.c_int()
        call("data_contacts", self._handle(), ctypes.byref(p), ctypes.byref(n))
        return [Contact(c.body_a, c.body_b, c.geom_a, c.geom_b, tuple(c.pos), tuple(c.normal), c.dist,
                        tuple(c.force)) for c in p[:n.value]]

    def save(self, path):
        """Writes a checkpoint file (everything the next step depends on)."""
        call("data_save", self._handle(), os.fsencode(path))

    def load(self, path):
        """Continues from a checkpoint file written by save()."""
        call("data_load", self._handle(), os.fsencode(path))

    def snapshot(self):
        """An in-memory checkpoint, for restore()."""
        h = ctypes.c_int64()
        call("data_snapshot", self._handle(), ctypes.byref(h))
        return Snapshot(h.value)

    def restore(self, snapshot):
        """Continues from a snapshot (of this data or another of the same model)."""
        if not isinstance(snapshot, Snapshot):
            raise InvalidArgument("restore: want a Snapshot, not %s" % type(snapshot).__name__)
        call("data_restore", self._handle(), snapshot._h)

    def close(self):
        """Stops this object from being used. The engine's memory is
        released once neither this object nor an array view of it remains."""
        self._h = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<stiction.Data of %s, t=%g s>" % (self.model.name, self.stats.time) if self._h else "<stiction.Data (closed)>"


class Snapshot:
    """An in-memory checkpoint (Data.snapshot)."""

    def __init__(self, h):
        self._h = h

    def __del__(self):
        try:
            call("snapshot_free", self._h)
        except Exception:
            pass


class Batch:
    """n copies of a model stepped together on worker threads, bit-identical
    to stepping each alone. qpos, qvel and ctrl are (n, nq), (n, nv) and
    (n, nu) views of the engine's memory."""

    def __init__(self, model, n, workers=0):
        for v, what in ((n, "n"), (workers, "workers")):
            if isinstance(v, bool) or not isinstance(v, int):
                raise InvalidArgument("make_batch: %s must be an int, not %r" % (what, v))
        h = ctypes.c_int64()
        call("batch_make", model._h, n, workers, ctypes.byref(h))
        self._h = h.value
        self._mem = _Owner("batch_free", h.value)
        self.model, self.n = model, n
        self._qpos = self._array(_lib.QPOS, model.nq)
        self._qvel = self._array(_lib.QVEL, model.nv)
        self._ctrl = self._array(_lib.CTRL, model.nu)

    @property
    def qpos(self):
        """Positions of every copy, (n, nq): a writable view of the engine's memory."""
        return self._qpos

    @qpos.setter
    def qpos(self, value):
        _assign(self._qpos, value, (self.n, self.model.nq), "qpos")

    @property
    def qvel(self):
        """Velocities of every copy, (n, nv): a writable view of the engine's memory."""
        return self._qvel

    @qvel.setter
    def qvel(self, value):
        _assign(self._qvel, value, (self.n, self.model.nv), "qvel")

    @property
    def ctrl(self):
        """Controls of every copy, (n, nu): a writable view of the engine's memory."""
        return self._ctrl

    @ctrl.setter
    def ctrl(self, value):
        _assign(self._ctrl, value, (self.n, self.model.nu), "ctrl")

    def _handle(self):
        if not self._h:
            raise HandleError("stiction: this batch was closed")
        return self._h

    def _array(self, which, width):
        p, k = ctypes.POINTER(ctypes.c_double)(), ctypes.c_int()
        call("batch_array", self._handle(), which, ctypes.byref(p), ctypes.byref(k))
        return _view(self._mem, p, k.value, (self.n, width) if np is not None else None)

    def step(self, ctrl=None, n=1):
        """Sets ctrl (shape (n, nu), or None to keep the current) and takes n
        steps of every copy."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidArgument("step: n must be an int >= 0, not %r" % (n,))
        h = self._handle()
        if ctrl is not None:
            _assign(self._ctrl, ctrl, (self.n, self.model.nu), "ctrl")
        call("batch_step", h, None, n)

    def reset(self, i=None):
        """Resets copy i, or every copy."""
        if i is not None and (isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.n):
            raise InvalidArgument("reset: no copy %r (%d copies)" % (i, self.n))
        call("batch_reset", self._handle(), -1 if i is None else i)

    def data(self, i):
        """Copy i as a Data (owned by the batch)."""
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.n:
            raise InvalidArgument("data: no copy %r (%d copies)" % (i, self.n))
        h = ctypes.c_int64()
        call("batch_data", self._handle(), i, ctypes.byref(h))
        return Data(self.model, h.value, self._mem)

    def close(self):
        """Stops this object from being used; the memory is released once
        neither this object, its copies' Data nor an array view remains."""
        self._h = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _assign(dst, src, shape, what):
    """dst[...] = src after checking shape, dtype and finiteness."""
    if np is not None:
        a = np.asarray(src)
        if a.dtype.kind not in "fiu":
            raise InvalidArgument("%s: want numbers, got dtype %s" % (what, a.dtype))
        if a.shape != tuple(shape):
            raise InvalidArgument("%s: shape %s, want %s" % (what, a.shape, tuple(shape)))
        if not np.all(np.isfinite(a)):
            raise InvalidArgument("%s: holds values that are not finite" % what)
        dst[...] = a
        return
    flat = [float(x) for row in src for x in row] if shape[1:] else [float(x) for x in src]
    if len(flat) != math.prod(shape):
        raise InvalidArgument("%s: %d values, want %s" % (what, len(flat), shape))
    if not all(math.isfinite(x) for x in flat):
        raise InvalidArgument("%s: holds values that are not finite" % what)
    dst[:] = flat
