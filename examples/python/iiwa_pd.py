"""A joint-space PD controller for the KUKA iiwa written in Python.

Drake's iiwa URDF (shipped in the binary) has motor actuators, whose input
is the joint torque. Each step, Python computes τ = Kp (q* − q) − Kd q̇
toward a target posture and writes it into data.ctrl.

    python3 examples/python/iiwa_pd.py
"""

import numpy as np

import stiction

MODEL = "embedded://drake_models/iiwa_description/urdf/iiwa14_spheres_dense_collision.urdf"


def main():
    model = stiction.load(MODEL, ground=True)
    data = model.make_data()
    print(model, "\nactuators:", ", ".join(model.actuator_names))
    target = np.array([0.0, 0.6, 0.0, -1.2, 0.0, 0.8, 0.0])[:model.nu]
    kp, kd = 800.0, 80.0
    joints = [model.joint("iiwa_joint_%d" % (i + 1)) for i in range(7)]  # the motors' joints, in order
    qadr, vadr = [j.qadr for j in joints], [j.vadr for j in joints]
    for step in range(int(2.0 / model.dt)):
        q, v = data.qpos[qadr], data.qvel[vadr]
        data.ctrl[:] = kp * (target - q) - kd * v
        data.step()
        if step % int(0.5 / model.dt) == 0:
            print("t = %.2f s  max |q* - q| = %.4f rad" % (data.time, np.max(np.abs(target - data.qpos[qadr]))))
    err = np.max(np.abs(target - data.qpos[qadr]))
    print("after %.1f s: max |q* - q| = %.4f rad (the PD has no gravity compensation)" % (data.time, err))
    print("actuator torques (N·m):", np.round(data.actuator_force, 2))


if __name__ == "__main__":
    main()
