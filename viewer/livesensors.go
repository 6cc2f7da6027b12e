package viewer

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sensor"
	"github.com/stiction-sim/stiction/sim"
)

// liveSensors evaluates a model's sensors for the frames (package sensor):
// position and velocity sensors at the frame's state, the others from the
// last step, whose start state it keeps.
type liveSensors struct {
	set     *sensor.Set
	q0, v0  []float64
	stepped bool
}

// newLiveSensors returns the sensors of b, or nil when it has none.
func newLiveSensors(b *scene.Built) (*liveSensors, error) {
	if len(b.Sensors) == 0 {
		return nil, nil
	}
	set, err := sensor.NewSet(b.Model, b.Sensors)
	if err != nil {
		return nil, err
	}
	return &liveSensors{set: set, q0: make([]float64, b.Model.NQ), v0: make([]float64, b.Model.NV)}, nil
}

// start keeps the state at the start of a step; a nil l does nothing.
func (l *liveSensors) start(st *multibody.State) {
	if l == nil {
		return
	}
	copy(l.q0, st.Q)
	copy(l.v0, st.V)
	l.stepped = true
}

// names returns the sensors' names and number of values, or empty lists.
func (l *liveSensors) names() ([]string, []int) {
	if l == nil {
		return []string{}, []int{}
	}
	specs := l.set.Specs()
	names, dims := make([]string, len(specs)), make([]int, len(specs))
	for i, sp := range specs {
		names[i], dims[i] = sp.Name, sp.Type.Dim()
	}
	return names, dims
}

// values evaluates the sensors of simulator s (acceleration and force
// sensors read NaN before the first step and after a joint edit).
func (l *liveSensors) values(s *sim.Simulator, dt float64) []Num {
	if l == nil {
		return []Num{}
	}
	out := make([]float64, l.set.Len())
	var step *sensor.Step
	if l.stepped && s.Steps() > 0 {
		step = &sensor.Step{DT: dt, Q0: l.q0, V0: l.v0, Contacts: s.Contacts(), Impulses: s.Impulses(), Reports: s.ConstraintReports()}
	}
	l.set.Evaluate(s.State, step, out)
	res := make([]Num, len(out))
	for i, x := range out {
		res[i] = Num(x)
	}
	return res
}
