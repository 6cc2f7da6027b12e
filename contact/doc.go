// Package contact turns geometric contacts into the discrete contact problem
// of one time step (package solver): the contact Jacobian J in contact
// frames, the stabilization velocities v̂, the regularization R and the
// friction coefficients μ (SAP §V, eq. 27–30). It knows the compliant
// contact model, not how the problem is solved.
//
// Conventions. A contact between geometries A and B has a unit normal n̂
// pointing from A towards B and a signed distance φ (negative when they
// overlap). Its frame is (t1, t2, n̂) with t1, t2 from spatial.Orthonormal(n̂),
// and its rows of J give v_c = Cᵀ (v_B(p) − v_A(p)): the velocity of B's
// material point at p relative to A's, so v_n > 0 means separating and
// φ ≈ φ0 + δt v_n over the step. An impulse γ with γ_n > 0 acts on B along
// +n̂ and on A along −n̂.
package contact
