package sim_test

import (
	"fmt"
	"math"
	"testing"
)

// The soft-bounce checks of issue 22: a sphere dropped onto a compliant
// contact rebounds as the time-discrete spring-damper predicts; the
// recovery-speed cap (contact.max_recovery_speed) must not clip a
// compliant contact's elastic deformation.

const (
	bounceH0 = 1.0  // drop height of the ball's lowest point, m
	bounceR  = 0.05 // the drop scene's ball radius, m
	bounceG  = 9.81 // the drop scene's gravity, m/s²
)

// bounceMass is the drop scene's ball mass (density 1000 kg/m³).
var bounceMass = 1000 * 4 / 3 * math.Pi * bounceR * bounceR * bounceR

// bounceRatio drops the drop scene's ball from bounceH0 onto a rigid
// ground through a contact of stiffness k and dissipation τd (the ball's
// material, in series with a 1e15 N/m ground: k), and returns h1/h0, the
// height of its first rebound apex over the drop height.
func bounceRatio(t *testing.T, k, taud, dt float64) float64 {
	t.Helper()
	s, _ := load(t, "drop",
		fmt.Sprintf("materials.default.stiffness=%g", k),
		fmt.Sprintf("materials.default.dissipation=%g", taud),
		"materials.default.friction=0",
		"materials.rigid={stiffness: 1e15, dissipation: 0, friction: 0}",
		"bodies.ground.material=rigid",
		fmt.Sprintf("bodies.ball.pose.position=[0, 0, %g]", bounceH0+bounceR),
		fmt.Sprintf("dt=%g", dt))
	touched, apex := false, 0.0
	for range int(math.Ceil(1.2 / dt)) {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		z := position(t, s, "ball")[2] - bounceR
		touched = touched || z < 0
		if touched {
			apex = max(apex, z)
		}
	}
	if !touched {
		t.Fatal("the ball never touched the ground")
	}
	return apex / bounceH0
}

// discreteBounce replays the same drop as a 1-DOF recurrence of the
// time-discrete contact (SAP eq. 2 and §V-A): each step,
// v1 = v0 − δt g + γ/m with the impulse γ = δt k (−φ0 − (δt + τd) v1)
// when positive (else 0), and φ1 = φ0 + δt v1 (symplectic Euler). The
// contact exists once the gap is within the 1 mm margin plus the step's
// approach (−v0 δt + g δt², sim's speculative detection); with a gap φ0 > 0
// and τd > 0 it brakes the ball over τd v before it touches (SAP §V-A's
// v̂ = −φ0/(δt + τd)).
func discreteBounce(k, taud, dt float64) float64 {
	x, v, touched, apex := bounceH0, 0.0, false, 0.0
	a := dt * k / bounceMass
	for range int(math.Ceil(1.2 / dt)) {
		vfree := v - dt*bounceG
		v1 := (vfree - a*x) / (1 + a*(dt+taud))
		if detected := x <= 1e-3+(-v)*dt+bounceG*dt*dt; !detected || v1 <= vfree {
			v1 = vfree // no contact, or γ ≤ 0
		}
		x, v = x+dt*v1, v1
		touched = touched || x < 0
		if touched {
			apex = max(apex, x)
		}
	}
	return apex / bounceH0
}

// implicitSpringRatio is the energy ratio of the undamped implicit-Euler
// spring after half a period: each step scales the amplitude by
// (1 + (ωδt)²)^(−1/2), and half a period lasts π/atan(ωδt) steps.
func implicitSpringRatio(omega, dt float64) float64 {
	x := omega * dt
	return math.Pow(1+x*x, -math.Pi/math.Atan(x))
}

// kelvinVoigtApex is the closed-form rebound of the continuous linear
// spring-damper m ẍ = −k x − c ẋ − m g, c = k τd, whose force cannot pull,
// for the drop from bounceH0: the ball meets the ground at v0 = √(2 g h0);
// in contact, with u = x + g/ω² (the offset of the static deflection),
// ζ = τd ω/2 and ω_d = ω√(1 − ζ²),
//
//	u(t) = e^(−ζωt) (u0 cos ω_d t + (u̇0 + ζω u0)/ω_d sin ω_d t),
//
// u0 = g/ω², u̇0 = −v0; the contact opens at the first t_s > 0 where the
// force −k x − c ẋ vanishes, and the ball then rises to
// x(t_s) + ẋ(t_s)²/(2g). Returned as a fraction of h0.
func kelvinVoigtApex(omega, taud float64) float64 {
	z := taud * omega / 2
	wd := omega * math.Sqrt(1-z*z)
	u0, du0 := bounceG/(omega*omega), -math.Sqrt(2*bounceG*bounceH0)
	b := (du0 + z*omega*u0) / wd
	state := func(t float64) (x, v float64) {
		e, c, s := math.Exp(-z*omega*t), math.Cos(wd*t), math.Sin(wd*t)
		u := e * (u0*c + b*s)
		du := e * ((b*wd-z*omega*u0)*c - (u0*wd+z*omega*b)*s)
		return u - u0, du
	}
	force := func(t float64) float64 { // per unit stiffness: −x − τd ẋ
		x, v := state(t)
		return -x - taud*v
	}
	lo, hi := 0.0, 0.0
	for h := 1e-3 / omega; ; hi += h { // bracket the first sign change
		if force(hi+h) <= 0 {
			lo, hi = hi, hi+h
			break
		}
	}
	for range 100 {
		if mid := (lo + hi) / 2; force(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	x, v := state(hi)
	return (x + v*v/(2*bounceG)) / bounceH0
}

func TestSoftContactBounces(t *testing.T) {
	const k = 1e4
	omega := math.Sqrt(k / bounceMass)
	for _, dt := range []float64{1e-4, 1e-3, 1e-2} {
		for _, zeta := range []float64{0, 0.1, 0.3} {
			taud := 2 * zeta / omega
			got := bounceRatio(t, k, taud, dt)
			replay := discreteBounce(k, taud, dt)
			kv := kelvinVoigtApex(omega, taud)
			est := implicitSpringRatio(omega, dt) * kv
			t.Logf("δt %g, ζ %.1f: h1/h0 = %.4f; time-discrete replay %.4f; implicit-spring × Kelvin–Voigt estimate %.4f (continuous %.4f)",
				dt, zeta, got, replay, est, kv)
			if math.Abs(got-replay) > 5e-3*replay+1e-6 {
				t.Errorf("δt %g, ζ %.1f: h1/h0 = %.4f, the time-discrete contact gives %.4f", dt, zeta, got, replay)
			}
			// The implicit spring's loss and the damper's combine as a
			// product only while the step's own loss is small: the estimate
			// is checked without dissipation at 1 ms and 0.1 ms, and with
			// light dissipation at 0.1 ms. With heavier dissipation the
			// pre-touch braking of SAP's v̂ = −φ0/(δt + τd) over τd v0
			// shows: at ζ = 0.3 and 0.1 ms, 4.1% under the estimate
			// (measured; logged, not asserted; docs/CONTACT.md).
			if (dt == 1e-4 && zeta <= 0.1 || dt == 1e-3 && zeta == 0) && math.Abs(got/est-1) > 0.02 {
				t.Errorf("δt %g, ζ %.1f: h1/h0 = %.4f, more than 2%% from the estimate %.4f", dt, zeta, got, est)
			}
		}
	}
}
