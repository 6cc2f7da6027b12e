// Package validate reproduces the quantitative claims of the three papers
// the engine implements (the SAP paper, Drumwright's first-order solver and
// the mechanics notes) and reports, for each one, the claim, its source, the
// expected value, the value measured here, the tolerance and PASS or FAIL.
//
// Each claim is a Claim registered from an init function in the file of its
// topic (sap.go, drumwright.go, notes.go, integrators.go). A claim computes
// its measurement by running the engine; nothing in a Row is hard-coded
// except the paper's expected value and the tolerance.
package validate
