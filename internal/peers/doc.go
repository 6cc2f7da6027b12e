// Package peers holds the peer benchmark scenes of the side-by-side
// comparison with other engines (clutter-40, clutter-160,
// stack-100-spheres, boxes-10-perturbed at δt = 10 ms and 1 ms,
// cube-slide: copies of the project's peer benchmark folder, with its README and the
// peers' figures) and the peer figures themselves, for `stiction bench
// --peers` and the step benchmarks of package sim.
package peers
