"""stiction.Env: the reset/step protocol of Gymnasium environments."""

from ._core import Model, _assign, load, np
from .errors import InvalidArgument

try:
    import gymnasium
except ImportError:  # Gymnasium is optional
    gymnasium = None


def _default_obs(data):
    if np is not None:
        return np.concatenate([data.qpos, data.qvel])
    return list(data.qpos) + list(data.qvel)


class Env:
    """A learning environment over one Data, with Gymnasium's protocol:
    reset() returns (observation, info) and step(action) returns
    (observation, reward, terminated, truncated, info).

    model: a Model or anything stiction.load accepts. obs_fn(data) gives the
    observation (default: qpos and qvel concatenated), reward_fn(data,
    action) the reward (default 0), terminate_fn(data) whether the episode
    ended (default never). Each step sets ctrl to the action and takes
    frame_skip engine steps; episodes are truncated after max_steps steps.
    reset_noise adds uniform noise of that amplitude to the initial qpos and
    qvel (from the reset's seed). When gymnasium is importable, the Env
    declares action_space (a Box of the actuators' inputs, bounded by
    ctrl_range) and observation_space.
    """

    metadata = {"render_modes": []}

    def __init__(self, model, obs_fn=None, reward_fn=None, terminate_fn=None, frame_skip=1,
                 max_steps=1000, reset_noise=0.0, ctrl_range=(-1.0, 1.0), keyframe=None):
        if not isinstance(model, Model):
            model = load(model)
        if not isinstance(frame_skip, int) or frame_skip < 1:
            raise InvalidArgument("Env: frame_skip must be an int >= 1, not %r" % (frame_skip,))
        self.model, self.data = model, model.make_data()
        self.obs_fn, self.reward_fn, self.terminate_fn = obs_fn or _default_obs, reward_fn, terminate_fn
        self.frame_skip, self.max_steps, self.reset_noise = frame_skip, max_steps, reset_noise
        self.keyframe, self.steps = keyframe, 0
        self._rng = np.random.default_rng() if np is not None else None
        if gymnasium is not None and np is not None:
            lo, hi = ctrl_range
            self.action_space = gymnasium.spaces.Box(lo, hi, shape=(model.nu,), dtype=np.float64)
            obs = np.asarray(self.obs_fn(self.data))
            self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, shape=obs.shape, dtype=np.float64)

    def reset(self, seed=None, options=None):
        """Starts an episode; returns (observation, info)."""
        if seed is not None and np is not None:
            self._rng = np.random.default_rng(seed)
        self.data.reset(self.keyframe)
        if self.reset_noise and np is not None:
            a = self.reset_noise
            self.data.qpos += self._rng.uniform(-a, a, self.model.nq)
            self.data.qvel += self._rng.uniform(-a, a, self.model.nv)
        self.steps = 0
        return self.obs_fn(self.data), {}

    def step(self, action):
        """Applies action (shape (nu,)) for frame_skip steps; returns
        (observation, reward, terminated, truncated, info)."""
        _assign(self.data.ctrl, action, (self.model.nu,), "action")
        self.data.step(self.frame_skip)
        self.steps += 1
        reward = float(self.reward_fn(self.data, action)) if self.reward_fn else 0.0
        terminated = bool(self.terminate_fn(self.data)) if self.terminate_fn else False
        truncated = self.steps >= self.max_steps
        return self.obs_fn(self.data), reward, terminated, truncated, {"time": self.data.time}

    def close(self):
        """Releases the data."""
        self.data.close()
