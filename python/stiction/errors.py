"""Exceptions: each carries the engine's message (file, field, value)."""


class StictionError(Exception):
    """An error reported by the engine; ``code`` is the C API's return code."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


class HandleError(StictionError):
    """A model, data, batch or snapshot that was freed (or never made)."""


class LoadError(StictionError):
    """A model or scene that cannot be read or built."""


class InvalidArgument(StictionError, ValueError):
    """A bad argument: an index, name, size, shape, dtype or non-finite value."""


class StepError(StictionError):
    """A step that failed; the state is unchanged."""


class CheckpointError(StictionError, OSError):
    """A checkpoint file that cannot be written or read."""


class InternalError(StictionError):
    """An engine bug caught at the library boundary (please report it)."""


_BY_CODE = {1: HandleError, 2: InvalidArgument, 3: LoadError, 4: StepError, 5: CheckpointError,
            6: InternalError}


def _raise(code, message):
    raise _BY_CODE.get(code, StictionError)(message, code)
