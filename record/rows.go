package record

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// rowFile writes a CSV file in whole rows: rows are appended to a buffer
// that goes to the file only in flush, so that a process killed between
// flushes leaves the file at a row boundary (a write cut short by SIGKILL
// itself can still leave part of a row, which the readers drop:
// completeRows). Once its buffer has grown, a row does not allocate.
type rowFile struct {
	f   *os.File
	buf []byte
	err error // the first write error
}

// row appends complete rows (each ending with a newline) to the buffer.
func (r *rowFile) row(line []byte) { r.buf = append(r.buf, line...) }

// flush writes the buffered rows and returns the first write error.
func (r *rowFile) flush() error {
	if r.err == nil && len(r.buf) > 0 {
		_, r.err = r.f.Write(r.buf)
	}
	r.buf = r.buf[:0]
	return r.err
}

// completeRows reads the CSV file at path and returns its text up to its
// last newline: a last row cut short by a killed writer is dropped, with
// a warning appended to warns.
func completeRows(path string, warns *[]string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	end := bytes.LastIndexByte(data, '\n') + 1
	if end < len(data) {
		if warns != nil {
			*warns = append(*warns, fmt.Sprintf("%s: the last row is incomplete (%d bytes without a newline; the run was killed while writing?): ignored", filepath.Base(path), len(data)-end))
		}
		data = data[:end]
	}
	return data, nil
}
