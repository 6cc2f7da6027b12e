"""Stiction from Python: load a model, step it, read and write its state.

    import stiction
    model = stiction.load("pendulum")      # a robot file (.xml, .urdf, .sdf), a YAML scene,
                                           # an embedded scene or an embedded://... model
    data = model.make_data()
    data.ctrl[:] = 0.1                     # one input per actuator (model.actuator_names)
    data.step(10)
    data.qpos, data.qvel, data.contacts(), data.stats.momentum_error
    batch = model.make_batch(64)           # 64 copies stepped on all cores
    batch.step(ctrl)                       # ctrl: (64, nu)

The package calls the C API (capi/stiction.h) through ctypes; numpy is
optional, and when present the state arrays are numpy views of the
engine's memory. Errors raise StictionError subclasses with the engine's
message. See docs/PYTHON.md.
"""

from ._core import Batch, BodyInfo, Contact, Data, JointInfo, Model, SensorInfo, Snapshot, Stats, load
from ._lib import lib as _clib
from .env import Env
from .errors import (CheckpointError, HandleError, InternalError, InvalidArgument, LoadError, StepError,
                     StictionError)

__version__ = _clib.stiction_version().decode()

__all__ = ["load", "Model", "Data", "Batch", "Snapshot", "Env", "Stats", "Contact", "JointInfo",
           "BodyInfo", "SensorInfo", "StictionError", "HandleError", "LoadError", "InvalidArgument",
           "StepError", "CheckpointError", "InternalError"]
