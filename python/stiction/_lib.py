"""ctypes declarations of the C API (capi/stiction.h).

The shared library is found, in this order, at the path in the
STICTION_LIB environment variable, or as ``libstiction.so`` next to this
file (where the install command builds it).
"""

import ctypes
import os

from .errors import _raise

c_int, c_int32, c_int64, c_double = ctypes.c_int, ctypes.c_int32, ctypes.c_int64, ctypes.c_double
P = ctypes.POINTER

# Codes and enums of stiction.h.
OK, E_HANDLE, E_ARG, E_LOAD, E_STEP, E_IO, E_INTERNAL = range(7)
GROUND = 1
BODY, JOINT, ACTUATOR, SENSOR, KEYFRAME = range(5)
QPOS, QVEL, CTRL, ACTUATOR_FORCE, SENSORDATA, XPOSE = range(6)


class Sizes(ctypes.Structure):
    """stiction_sizes."""

    _fields_ = [("nq", c_int32), ("nv", c_int32), ("nu", c_int32), ("nbody", c_int32),
                ("njoint", c_int32), ("nsensor", c_int32), ("nsensordata", c_int32),
                ("nkeyframe", c_int32), ("dt", c_double)]


class JointInfo(ctypes.Structure):
    """stiction_joint_info."""

    _fields_ = [("body", c_int32), ("parent", c_int32), ("qadr", c_int32), ("nq", c_int32),
                ("vadr", c_int32), ("nv", c_int32)]


class BodyInfo(ctypes.Structure):
    """stiction_body_info."""

    _fields_ = [("mass", c_double), ("com", c_double * 3), ("joint", c_int32)]


class SensorInfo(ctypes.Structure):
    """stiction_sensor_info."""

    _fields_ = [("adr", c_int32), ("dim", c_int32)]


class Contact(ctypes.Structure):
    """stiction_contact."""

    _fields_ = [("body_a", c_int32), ("body_b", c_int32), ("geom_a", c_int32), ("geom_b", c_int32),
                ("pos", c_double * 3), ("normal", c_double * 3), ("dist", c_double),
                ("force", c_double * 3)]


class Stats(ctypes.Structure):
    """stiction_stats."""

    _fields_ = [("step", c_int64), ("time", c_double), ("contacts", c_int32),
                ("iterations", c_int32), ("status", c_int32), ("momentum_error", c_double),
                ("complementarity_error", c_double), ("kinetic_energy", c_double),
                ("potential_energy", c_double), ("max_penetration", c_double)]


_SIGNATURES = {
    "stiction_version": (ctypes.c_char_p, []),
    "stiction_last_error": (ctypes.c_char_p, []),
    "stiction_model_load": (c_int, [ctypes.c_char_p, P(ctypes.c_char_p), c_int, c_int, P(c_int64)]),
    "stiction_model_free": (c_int, [c_int64]),
    "stiction_model_sizes": (c_int, [c_int64, P(Sizes)]),
    "stiction_model_name": (c_int, [c_int64, c_int, c_int, P(ctypes.c_char_p)]),
    "stiction_model_index": (c_int, [c_int64, c_int, ctypes.c_char_p, P(c_int)]),
    "stiction_model_joint": (c_int, [c_int64, c_int, P(JointInfo)]),
    "stiction_model_body": (c_int, [c_int64, c_int, P(BodyInfo)]),
    "stiction_model_sensor": (c_int, [c_int64, c_int, P(SensorInfo)]),
    "stiction_data_make": (c_int, [c_int64, P(c_int64)]),
    "stiction_data_free": (c_int, [c_int64]),
    "stiction_data_step": (c_int, [c_int64, c_int]),
    "stiction_data_reset": (c_int, [c_int64]),
    "stiction_data_reset_keyframe": (c_int, [c_int64, ctypes.c_char_p]),
    "stiction_data_array": (c_int, [c_int64, c_int, P(P(c_double)), P(c_int)]),
    "stiction_data_contacts": (c_int, [c_int64, P(P(Contact)), P(c_int)]),
    "stiction_data_stats": (c_int, [c_int64, P(Stats)]),
    "stiction_data_save": (c_int, [c_int64, ctypes.c_char_p]),
    "stiction_data_load": (c_int, [c_int64, ctypes.c_char_p]),
    "stiction_data_snapshot": (c_int, [c_int64, P(c_int64)]),
    "stiction_data_restore": (c_int, [c_int64, c_int64]),
    "stiction_snapshot_free": (c_int, [c_int64]),
    "stiction_batch_make": (c_int, [c_int64, c_int, c_int, P(c_int64)]),
    "stiction_batch_free": (c_int, [c_int64]),
    "stiction_batch_step": (c_int, [c_int64, P(c_double), c_int]),
    "stiction_batch_array": (c_int, [c_int64, c_int, P(P(c_double)), P(c_int)]),
    "stiction_batch_data": (c_int, [c_int64, c_int, P(c_int64)]),
    "stiction_batch_reset": (c_int, [c_int64, c_int]),
}


def _find():
    path = os.environ.get("STICTION_LIB")
    if path:
        return path
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libstiction.so")


def _open():
    path = _find()
    if not os.path.exists(path):
        raise ImportError(
            "stiction: the shared library %s is missing; build it from the repository root with "
            "'go build -buildmode=c-shared -o python/stiction/libstiction.so ./capi' "
            "(or set STICTION_LIB)" % path)
    lib = ctypes.CDLL(path)
    for name, (res, args) in _SIGNATURES.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


lib = _open()


_FUNCS = {name[len("stiction_"):]: getattr(lib, name) for name in _SIGNATURES}


def call(name, *args):
    """Calls stiction_NAME and raises the engine's error if it fails."""
    rc = _FUNCS[name](*args)
    if rc != OK:
        fail(rc)


def fail(rc):
    """Raises the exception of return code rc with stiction_last_error()."""
    _raise(rc, lib.stiction_last_error().decode("utf-8", "replace"))
