// Package tendon computes the length L(q) and the Jacobian G = ∂L/∂q̇ (a
// row over the model's velocities, L̇ = G v) of spatial tendons: MuJoCo's
// <spatial> tendon, a path through sites fixed on bodies that may wrap
// over spheres and cylinders between two sites (MuJoCo 2.2's mj_tendon and
// mju_wrap). The force, limit and actuator packages use the pair (L, G):
// a tension f acts on the joints as Gᵀ f.
package tendon
