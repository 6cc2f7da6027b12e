package linalg

import "slices"

// Cache keeps the symbolic analysis of the last pattern it was given and
// redoes it only when the pattern (block sizes and edges) changes. The SAP
// solver keys it on the contact graph of each problem, so the analysis is
// shared by all Newton iterations of a solve and by consecutive time steps
// whose contact graph has the same shape. The zero Cache is ready to use
// with the MinDegree ordering.
type Cache struct {
	// Ordering is the ordering of new analyses.
	Ordering Ordering

	sym      Symbolic
	valid    bool
	ord      Ordering
	sizes    []int
	edges    []uint64
	analyses int
	hits     int
}

// Get returns the analysis of the pattern (sizes, edges), with edges as in
// Symbolic.Analyze. The returned Symbolic is owned by c and is overwritten
// by the next Get with a different pattern. Get does not allocate on a hit,
// nor on a miss once its buffers are large enough.
func (c *Cache) Get(sizes []int, edges []uint64) (*Symbolic, error) {
	if c.valid && c.ord == c.Ordering && slices.Equal(c.sizes, sizes) && slices.Equal(c.edges, edges) {
		c.hits++
		return &c.sym, nil
	}
	c.valid = false
	c.analyses++
	if err := c.sym.Analyze(sizes, edges, c.Ordering); err != nil {
		return nil, err
	}
	c.sizes = append(c.sizes[:0], sizes...)
	c.edges = append(c.edges[:0], edges...)
	c.ord, c.valid = c.Ordering, true
	return &c.sym, nil
}

// Analyses returns how many times Get ran the symbolic analysis.
func (c *Cache) Analyses() int { return c.analyses }

// Hits returns how many times Get reused the cached analysis.
func (c *Cache) Hits() int { return c.hits }
