"""A random-policy rollout of the Gymnasium hopper through stiction.Env.

Run from the repository root after the install command (README.md):

    python3 examples/python/hopper_random.py [MODEL]
"""

import os
import sys

import numpy as np

import stiction

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "..", "..", "internal", "mjref", "testdata", "gymnasium", "hopper.xml")


def reward(data, action):
    """Forward speed of the torso, minus a control cost (as Gymnasium's Hopper-v4)."""
    return data.qvel[0] - 1e-3 * float(np.sum(np.square(action)))


def fallen(data):
    """The torso fell below 0.7 m or leaned past 0.2 rad."""
    return data.qpos[1] < 0.7 or abs(data.qpos[2]) > 0.2


def main():
    env = stiction.Env(sys.argv[1] if len(sys.argv) > 1 else MODEL, reward_fn=reward,
                       terminate_fn=fallen, frame_skip=4, max_steps=250, reset_noise=0.005)
    rng = np.random.default_rng(0)
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        total, steps = 0.0, 0
        while True:
            obs, r, terminated, truncated, info = env.step(rng.uniform(-1, 1, env.model.nu))
            total, steps = total + r, steps + 1
            if terminated or truncated:
                break
        s = env.data.stats
        print("episode %d: %3d steps, t = %.3f s, return %7.3f, %s, last step e_m %.1e, %d contacts"
              % (episode, steps, info["time"], total, "fell" if terminated else "time limit",
                 s.momentum_error, s.contacts))


if __name__ == "__main__":
    main()
