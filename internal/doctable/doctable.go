// Package doctable writes generated tables into documents between marker
// comments, for the tests whose -update flag regenerates a table in docs
// (internal/mjref's parity table, internal/dartref's robot table).
package doctable

import (
	"bytes"
	"fmt"
	"os"
)

// Table is a generated region of File, between the lines Begin and End
// (HTML comments, which Markdown does not show).
type Table struct {
	File, Begin, End string
}

// span returns the region's bounds in doc: the offset of Begin and the
// offset just past End.
func (tb Table) span(doc []byte) (i, j int, err error) {
	i, j = bytes.Index(doc, []byte(tb.Begin)), bytes.Index(doc, []byte(tb.End))
	if i < 0 || j < i {
		return 0, 0, fmt.Errorf("%s: markers %q … %q missing or out of order", tb.File, tb.Begin, tb.End)
	}
	return i, j + len(tb.End), nil
}

// Check reports an error unless File holds both markers, in order.
func (tb Table) Check() error {
	doc, err := os.ReadFile(tb.File)
	if err != nil {
		return err
	}
	_, _, err = tb.span(doc)
	return err
}

// Write replaces the region of File with the markers around body (which
// should end with a newline). The file is read again here, so that edits
// made while the table was measured are kept.
func (tb Table) Write(body string) error {
	doc, err := os.ReadFile(tb.File)
	if err != nil {
		return err
	}
	i, j, err := tb.span(doc)
	if err != nil {
		return err
	}
	out := append(append([]byte{}, doc[:i]...), tb.Begin+"\n"+body+tb.End...)
	out = append(out, doc[j:]...)
	return os.WriteFile(tb.File, out, 0o644)
}
