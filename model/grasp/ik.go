package grasp

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// poseError returns the 6-vector (position error, rotation vector error)
// that takes pose x to target, both in the world frame.
func poseError(x, target spatial.Pose) [6]float64 {
	dp := target.P.Sub(x.P)
	dq := target.R.Mul(x.R.Conj())
	if dq.W < 0 {
		dq = spatial.Quat{W: -dq.W, X: -dq.X, Y: -dq.Y, Z: -dq.Z}
	}
	// 2 (x, y, z) of the error quaternion: the rotation vector to first order.
	return [6]float64{dp[0], dp[1], dp[2], 2 * dq.X, 2 * dq.Y, 2 * dq.Z}
}

// ik returns joint values of the bodies in joints (one revolute joint
// each) that put body's frame at target, starting from seed, within the
// joints' limits. It minimises ‖e(q)‖² by damped least squares with a
// finite-difference Jacobian J (Wampler 1986; Nakamura and Hanafusa 1986):
// Δq = (JᵀJ + (λ² + w²) I)⁻¹ (Jᵀe + w² (seed − q)), the term w pulling the
// redundant arm towards the seed during the first iterations, then w = 0;
// steps are bounded by 0.2 rad and clamped to the limits. It fails unless
// the pose is reached to 1e-10 m and rad.
func ik(m *multibody.Model, st *multibody.State, body int, joints []int, target spatial.Pose, seed []float64) ([]float64, error) {
	n := len(joints)
	q := append([]float64(nil), seed...)
	err := func() [6]float64 {
		for k, b := range joints {
			st.Q[m.Bodies[b].QOff] = q[k]
		}
		return poseError(m.BodyPose(st, body), target)
	}
	const lambda2, h = 1e-4, 1e-7
	J := mat.NewDense(6, n, nil)
	for it := range 400 {
		e := err()
		for k := range n {
			q[k] += h
			e2 := err()
			q[k] -= h
			for r := range 6 {
				J.Set(r, k, -(e2[r]-e[r])/h)
			}
		}
		w2 := 0.0
		if it < 300 {
			w2 = 0.01
		}
		var A mat.Dense
		A.Mul(J.T(), J)
		rhs := mat.NewVecDense(n, nil)
		rhs.MulVec(J.T(), mat.NewVecDense(6, e[:]))
		for k := range n {
			A.Set(k, k, A.At(k, k)+lambda2+w2)
			rhs.SetVec(k, rhs.AtVec(k)+w2*(seed[k]-q[k]))
		}
		var dq mat.VecDense
		if err := dq.SolveVec(&A, rhs); err != nil {
			return nil, fmt.Errorf("ik: %w", err)
		}
		for k, b := range joints {
			lo, hi := m.Bodies[b].Joint.Lower[0], m.Bodies[b].Joint.Upper[0]
			q[k] = math.Max(lo, math.Min(hi, q[k]+math.Max(-0.2, math.Min(0.2, dq.AtVec(k)))))
		}
	}
	e := err()
	if math.Hypot(math.Hypot(e[0], e[1]), e[2]) > 1e-10 || math.Hypot(math.Hypot(e[3], e[4]), e[5]) > 1e-10 {
		return nil, errors.New("ik: the hand pose is out of reach")
	}
	return q, nil
}
