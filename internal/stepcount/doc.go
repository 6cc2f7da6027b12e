// Command stepcount loads one model or one peer scene and advances it a
// given number of steps, doing nothing else. It exists to count a step's
// instructions with callgrind: the instructions of one step are the
// difference of two runs divided by the difference of their step counts,
// which cancels the loader's fixed cost. BENCHMARKS.md's issue-23 passes
// give their counts with it:
//
//	go build -o /tmp/stepcount ./internal/stepcount
//	GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
//	    --callgrind-out-file=/tmp/walker.300.cg /tmp/stepcount -steps 300 \
//	    internal/mjref/testdata/dm_control/suite/walker.xml
//
// and the same with -steps 100; per step = (I₃₀₀ − I₁₀₀)/200. Check each
// run's exit status: valgrind 3.19 (Debian 12's) does not decode RDTSCP,
// which the Go runtime's cputicks executes now and then, so a run may die
// with SIGILL after a few million instructions; run it again. With -peer
// the argument names a peer scene of internal/peers (clutter-40,
// cube-slide, …) instead of a model file.
//
// The code a step runs (its instruction-cache footprint) comes from the
// same pair of runs made with --cache-sim=yes --dump-instr=yes: foot.py,
// beside this file, reads both callgrind files and prints per step the
// instructions, the I1 and D1 misses and the "hot lines", the 64-byte
// lines of machine code that run about once a step or more, by package
// and (--fn N) by function; with --engine --bin BINARY (the stepcount
// binary both runs ran) it puts instructions in functions by the binary's
// symbol table rather than by callgrind's names, and leaves the loader
// (scene, model/*) and the runtime out:
//
//	python3 internal/stepcount/foot.py /tmp/hc.100.cg /tmp/hc.600.cg 500 --fn 40 --engine --bin /tmp/stepcount
//
// The same script reads a callgrind run of internal/mjref's C tool
// (--toggle-collect=mj_step) for MuJoCo's side.
package main
