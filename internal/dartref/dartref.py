"""Stiction's DART reference (internal/dartref): load a URDF with DART's
URDF loader (dartpy, Debian's python3-dartpy) and print, as JSON, the
degrees of freedom, the total mass, and M(q) and the bias C(q, v) + g(q)
at the given states. Input (stdin, JSON):
  {"urdf": text, "inertia": {link: {"mass": m, "com": [3], "I": [[3]x3]}},
   "states": [{"q": {dof: value}, "v": {dof: value}}]}
The root link is welded to the world (as Stiction's default); links named in
"inertia" get those mass properties (Stiction's repairs, applied to both
sides); links without <inertial> get zero mass (DART's default is 1 kg).
"""
import json
import sys

import numpy as np
import dartpy as dart


def main():
    req = json.load(sys.stdin)
    loader = dart.utils.DartLoader()
    opts = dart.utils.DartLoader.Options()
    opts.mDefaultRootJointType = dart.utils.DartLoader.RootJointType.FIXED
    opts.mDefaultInertia = dart.dynamics.Inertia(0.0, np.zeros(3), np.zeros((3, 3)))
    loader.setOptions(opts)
    skel = loader.parseSkeletonString(req["urdf"], dart.common.Uri("file:///dartref.urdf"))
    if skel is None:
        print("\nDARTREF_JSON " + json.dumps({"error": "DART could not parse the URDF"}))
        return
    for name, p in req.get("inertia", {}).items():
        bn = skel.getBodyNode(name)
        if bn is None:
            continue
        bn.setInertia(dart.dynamics.Inertia(p["mass"], np.array(p["com"]), np.array(p["I"])))
    names = [skel.getDof(i).getName() for i in range(skel.getNumDofs())]
    index = {n: i for i, n in enumerate(names)}
    out = {"dofs": names, "mass": skel.getMass(), "states": []}
    for st in req.get("states", []):
        q = np.zeros(len(names))
        v = np.zeros(len(names))
        for n, x in st.get("q", {}).items():
            q[index[n]] = x
        for n, x in st.get("v", {}).items():
            v[index[n]] = x
        skel.setPositions(q)
        skel.setVelocities(v)
        out["states"].append({
            "M": skel.getMassMatrix().tolist(),
            "bias": skel.getCoriolisAndGravityForces().tolist(),
        })
    print("\nDARTREF_JSON " + json.dumps(out))


main()
