package sap

// Trace records the Newton iterates of a solve, for tests and diagnostics.
// Set Params.Trace to a *Trace to enable it; every Solve resets it.
type Trace struct {
	// Entries has one entry per evaluated iterate v_0, v_1, …, in order.
	Entries []TraceEntry
	// KeepIterates makes Solve copy every iterate v_m into Iterates.
	KeepIterates bool
	// Iterates holds a copy of v_m per entry when KeepIterates is set.
	Iterates [][]float64
}

// TraceEntry describes iterate v_m and the step taken from it. The step
// fields are zero for the last iterate, from which no step was taken.
type TraceEntry struct {
	Cost      float64 // ℓp(v_m), SAP eq. (24)
	GradNorm  float64 // ‖D ∇ℓp(v_m)‖, left side of SAP eq. (26)
	Tolerance float64 // εa + εr max(‖D p‖, ‖D j_c‖), right side of SAP eq. (26)

	Alpha                float64 // accepted step length α_m (0 if the step was rejected)
	LineSearchIterations int     // cost or derivative evaluations of the line search
	DCost0               float64 // dℓ/dα at α = 0, i.e. Δvᵀ∇ℓp(v_m) (SAP §IV-C)
	DCostAlpha           float64 // dℓ/dα at the accepted α (SAP §IV-C)
	// BracketCollapsed reports that the exact line search stopped because
	// its bracket reached machine precision rather than on its derivative
	// tolerance.
	BracketCollapsed bool
}

// reset empties the trace, keeping its storage.
func (t *Trace) reset() {
	t.Entries = t.Entries[:0]
	t.Iterates = t.Iterates[:0]
}

// record appends an entry for iterate v.
func (t *Trace) record(e TraceEntry, v []float64) {
	t.Entries = append(t.Entries, e)
	if t.KeepIterates {
		t.Iterates = append(t.Iterates, append([]float64(nil), v...))
	}
}

// last returns the entry of the current iterate.
func (t *Trace) last() *TraceEntry { return &t.Entries[len(t.Entries)-1] }
