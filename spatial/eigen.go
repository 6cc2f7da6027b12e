package spatial

import "gonum.org/v1/gonum/mat"

// EigSym3 returns the eigenvalues, in ascending order, and the unit
// eigenvectors (the columns of V) of the symmetric part of A (gonum's
// EigenSym).
func EigSym3(A Mat3) (ev [3]float64, V [3][3]float64) {
	sym := mat.NewSymDense(3, nil)
	for i := range 3 {
		for j := i; j < 3; j++ {
			sym.SetSym(i, j, (A[i][j]+A[j][i])/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		return ev, [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	for i := range 3 {
		ev[i] = vals[i]
		for j := range 3 {
			V[i][j] = vecs.At(i, j)
		}
	}
	return ev, V
}
