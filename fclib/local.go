package fclib

// local reads /fclib_local. Local problems with equality constraints (the
// optional V, R and s) are unsupported.
func (r *problemReader) local() (*LocalProblem, error) {
	const g = "/fclib_local"
	p := &LocalProblem{}
	var err error
	if p.SpaceDim, err = r.spaceDim(g); err != nil {
		return nil, err
	}
	for _, name := range []string{"/V", "/R", "/vectors/s"} {
		if r.exists(g + name) {
			return nil, unsupported("local problem with equality constraints (%s%s)", g, name)
		}
	}
	if p.Q, err = r.floats(g + "/vectors/q"); err != nil {
		return nil, err
	}
	if p.Mu, err = r.floats(g + "/vectors/mu"); err != nil {
		return nil, err
	}
	if err = checkContacts(g+"/vectors", len(p.Q), len(p.Mu), p.SpaceDim); err != nil {
		return nil, err
	}
	if p.W, err = r.matrix(g+"/W", len(p.Q), len(p.Q)); err != nil {
		return nil, err
	}
	p.Info, err = r.info(g)
	return p, err
}
