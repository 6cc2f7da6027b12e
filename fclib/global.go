package fclib

import "fmt"

// global reads /fclib_global.
func (r *problemReader) global() (*GlobalProblem, error) {
	const g = "/fclib_global"
	p := &GlobalProblem{}
	var err error
	if p.SpaceDim, err = r.spaceDim(g); err != nil {
		return nil, err
	}
	if err = r.globalVectors(p); err != nil {
		return nil, err
	}
	n, m := len(p.F), len(p.W)
	if p.M, err = r.matrix(g+"/M", n, n); err != nil {
		return nil, err
	}
	if p.H, err = r.matrix(g+"/H", n, m); err != nil {
		return nil, err
	}
	if r.exists(g + "/G") {
		if p.G, err = r.matrix(g+"/G", n, len(p.B)); err != nil {
			return nil, err
		}
	}
	p.Info, err = r.info(g)
	return p, err
}

// globalVectors reads f, w, μ and the optional b, and checks their lengths.
func (r *problemReader) globalVectors(p *GlobalProblem) error {
	const v = "/fclib_global/vectors"
	var err error
	if p.F, err = r.floats(v + "/f"); err != nil {
		return err
	}
	if p.W, err = r.floats(v + "/w"); err != nil {
		return err
	}
	if p.Mu, err = r.floats(v + "/mu"); err != nil {
		return err
	}
	if r.exists(v + "/b") {
		if p.B, err = r.floats(v + "/b"); err != nil {
			return err
		}
	}
	if p.B != nil && !r.exists("/fclib_global/G") {
		return fmt.Errorf("%s/b: %w", v, malformed("present without /fclib_global/G"))
	}
	return checkContacts(v, len(p.W), len(p.Mu), p.SpaceDim)
}

// checkContacts checks that the contact vectors (length m) and μ (one per
// contact) agree.
func checkContacts(where string, m, nmu, dim int) error {
	if m%dim != 0 || m/dim != nmu {
		return fmt.Errorf("%s: %w", where, malformed("%d contact components and %d friction coefficients for dimension %d", m, nmu, dim))
	}
	return nil
}
