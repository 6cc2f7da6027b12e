package multibody

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/internal/cputime"
	"github.com/stiction-sim/stiction/spatial"
)

// BenchmarkUpdateWeld times Update on a two-link arm whose tip is a body
// welded to the second link (the dm reacher's finger, Gymnasium's
// reacher's fingertip), the case Workspace.weld serves:
//
//	go test ./multibody -run XXX -bench UpdateWeld -count 6
func BenchmarkUpdateWeld(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	p := -1
	for _, t := range []JointType{JointRevolute, JointRevolute, JointWeld} {
		j := Joint{Type: t, Parent: p, ParentFrame: spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0.12, 0, 0}}, ChildFrame: spatial.PoseIdentity(), Axis: spatial.Vec3{0, 0, 1}}
		var err error
		if p, err = m.AddBody("link", rinertia(r), j); err != nil {
			b.Fatal(err)
		}
	}
	s := m.NewState()
	randomize(r, m, s)
	ws := NewWorkspace(m)
	b.ReportAllocs()
	cpu := -cputime.Process()
	for b.Loop() {
		ws.Update(s.Q, s.V)
	}
	cpu += cputime.Process()
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}
