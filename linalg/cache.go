package linalg

import "slices"

// DefaultCacheCapacity is the number of analyses a Cache keeps when its
// Capacity is 0.
const DefaultCacheCapacity = 16

// Cache keeps the symbolic analyses of the last few patterns it was given
// (block sizes and edges) and reruns the analysis only for a pattern it does
// not hold, replacing the least recently used one when full. The SAP solver
// keys it on the contact graph of each problem, so an analysis is shared by
// all Newton iterations of a solve, by consecutive time steps whose contact
// graph keeps its shape, by steps whose graph returns to a recent shape (a
// contact that flickers on and off), and, when one solver handles every
// island of a scene in turn, by islands whose graphs recur. The zero Cache
// is ready to use with the MinDegree ordering and DefaultCacheCapacity.
type Cache struct {
	// Ordering is the ordering of new analyses.
	Ordering Ordering
	// Capacity is the number of analyses kept (0: DefaultCacheCapacity).
	// Set it before the first Get.
	Capacity int

	entries  []cacheEntry // allocated to the capacity at the first Get, never moved
	n        int          // entries in use
	clock    uint64       // Get calls, for least-recently-used replacement
	analyses int
	hits     int
	ws       analysisScratch // the workspace every entry's analysis runs in
	largest  symbolicSize    // the largest storage any analysis needed
}

// cacheEntry is one kept analysis and its pattern.
type cacheEntry struct {
	sym   Symbolic
	ord   Ordering
	sizes []int
	edges []uint64
	used  uint64 // clock of the last Get that returned it
	valid bool   // the analysis of this pattern succeeded
}

// Get returns the analysis of the pattern (sizes, edges), with edges as in
// Symbolic.Analyze. The returned Symbolic is owned by c and stays valid
// until a later Get of a pattern c does not hold. Get does not allocate on a
// hit, nor on a miss once c has analysed a pattern at least as large (an
// entry's storage is grown to the largest analysis any entry needed).
func (c *Cache) Get(sizes []int, edges []uint64) (*Symbolic, error) {
	if c.entries == nil {
		capacity := c.Capacity
		if capacity <= 0 {
			capacity = DefaultCacheCapacity
		}
		c.entries = make([]cacheEntry, capacity)
	}
	c.clock++
	for i := range c.n {
		e := &c.entries[i]
		if e.valid && e.ord == c.Ordering && slices.Equal(e.sizes, sizes) && slices.Equal(e.edges, edges) {
			e.used = c.clock
			c.hits++
			return &e.sym, nil
		}
	}
	e := c.victim()
	c.analyses++
	e.valid = false // no stale match if Analyze fails
	e.sym.ws = &c.ws
	// Every entry's storage is kept as large as the largest analysis any
	// entry needed, so that once the largest pattern has been seen,
	// entries taking turns (least recently used) do not allocate.
	e.sym.reserve(c.largest)
	if err := e.sym.Analyze(sizes, edges, c.Ordering); err != nil {
		return nil, err
	}
	z := e.sym.size()
	c.largest = symbolicSize{max(c.largest.blocks, z.blocks), max(c.largest.rows, z.rows), max(c.largest.scat, z.scat)}
	e.sizes = append(e.sizes[:0], sizes...)
	e.edges = append(e.edges[:0], edges...)
	e.ord, e.used, e.valid = c.Ordering, c.clock, true
	return &e.sym, nil
}

// victim returns the entry a new analysis goes to: a free one, or else the
// least recently used.
func (c *Cache) victim() *cacheEntry {
	if c.n < len(c.entries) {
		c.n++
		return &c.entries[c.n-1]
	}
	v := 0
	for i := 1; i < c.n; i++ {
		if c.entries[i].used < c.entries[v].used {
			v = i
		}
	}
	return &c.entries[v]
}

// Analyses returns how many times Get ran the symbolic analysis.
func (c *Cache) Analyses() int { return c.analyses }

// Hits returns how many times Get reused a kept analysis.
func (c *Cache) Hits() int { return c.hits }
