// Package validate reproduces the quantitative claims of the three papers
// the engine implements (the SAP paper, Drumwright's first-order solver and
// the mechanics notes) and reports, for each one, the claim, its source, the
// expected value, the value measured here, the tolerance and PASS or FAIL.
//
// Each claim is a Claim registered from an init function in the file of its
// topic (sap.go, drumwright.go, notes.go, integrators.go). A claim computes
// its measurement by running the engine (the shared runs are in
// internal/experiment); nothing in a Row is hard-coded except the paper's
// expected value and the tolerance.
//
// Run evaluates claims (an error, no rows or a row without Expected or
// Measured is a FAIL row), WriteTable prints the text table of
// `stiction validate`, and WriteReport writes VALIDATION.md with the plots
// the claims drew (plot.go, gonum/plot) under validation/.
package validate
