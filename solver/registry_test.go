package solver

import (
	"strings"
	"testing"
)

type nopSolver struct{ p Params }

func (nopSolver) Solve(*Problem, []float64, *Result) error { return nil }

func TestRegistry(t *testing.T) {
	Register("test-nop", func(p Params) Solver { return nopSolver{p} })
	if !Registered("test-nop") {
		t.Fatal("test-nop not registered")
	}
	p := DefaultParams()
	p.Omega = 1.5
	s, err := New("test-nop", p)
	if err != nil {
		t.Fatal(err)
	}
	if s.(nopSolver).p.Omega != 1.5 {
		t.Errorf("parameters not passed: %+v", s)
	}
	if _, err := New("no-such-solver", p); err == nil || !strings.Contains(err.Error(), "test-nop") {
		t.Errorf("unknown name: error %v does not list the registered solvers", err)
	}
	for _, bad := range []Params{
		{Tolerance: 0, MaxIterations: 1},
		{Tolerance: 1, MaxIterations: 1},
		{Tolerance: 1e-6, MaxIterations: 0},
		{Tolerance: 1e-6, MaxIterations: 1, Omega: 2},
		{Tolerance: 1e-6, MaxIterations: 1, AbsTolerance: -1},
	} {
		if _, err := New("test-nop", bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	mk, err := Maker("test-nop", p)
	if err != nil || mk() == nil {
		t.Fatalf("Maker: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("duplicate registration did not panic")
		}
	}()
	Register("test-nop", func(p Params) Solver { return nopSolver{p} })
}
