// Package batch steps many independent copies of one model, for learning
// and parameter sweeps.
//
// A Copy is one simulator with its own state, workspace, contact solver
// and control vector (Ctrl), built from a scene.Built. Its positions,
// velocities and controls are slices of the memory the engine steps
// (Qpos, Qvel, Ctrl): writing them between steps changes the next step,
// and reading them costs no copy. The memory is given by an Alloc, so
// that a foreign-language binding can place it where its host may hold
// it (package capi allocates it with C.malloc).
//
// A Batch steps N copies on W worker goroutines, each worker taking the
// next copy not yet stepped (an atomic counter), so that copies whose steps
// cost more (more contacts) do not leave a worker idle. The copies share no
// mutable memory, so which worker steps a copy does not matter: a batch
// step gives bit-identical results for any W, and the same as stepping
// each copy alone. A warmed-up Batch.Step allocates nothing. Between
// Steps a worker spins for a while (yielding) before it sleeps, and the
// caller spins until the workers are done: on small models a sleeping
// goroutine's wake-up costs more than a Step's share.
//
// Copy.Step takes sim.Simulator.Advance: the state after it is that of
// sim.Simulator.Step to the bit, and the step's statistics (the energies,
// e_m, the counts) are gathered by Copy.Stats when it is read, so that a
// learning loop that never reads them does not pay for them.
package batch
