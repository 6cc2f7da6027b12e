package fclib

// FCLIB orders each contact's components (n, t1, t2); solver.Problem orders
// them (t1, t2, n). P maps the first to the second: (P x)_3i+k = x_3i+fromFCLIB[k].
var fromFCLIB = [3]int{1, 2, 0}

// toSAP sets out = P x (FCLIB order to SAP order), contact by contact.
func toSAP(x, out []float64) {
	for i := 0; i+2 < len(x); i += 3 {
		out[i], out[i+1], out[i+2] = x[i+1], x[i+2], x[i]
	}
}

// toFCLIB sets out = Pᵀ x (SAP order to FCLIB order).
func toFCLIB(x, out []float64) {
	for i := 0; i+2 < len(x); i += 3 {
		out[i], out[i+1], out[i+2] = x[i+2], x[i], x[i+1]
	}
}

// negatedSAP returns −P x.
func negatedSAP(x []float64) []float64 {
	out := make([]float64, len(x))
	toSAP(x, out)
	for i := range out {
		out[i] = -out[i]
	}
	return out
}
