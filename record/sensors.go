package record

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// SensorsFile is the name of the sensors file in a run directory.
const SensorsFile = "sensors.csv"

// SensorWriter writes sensors.csv: a header t, then one column per sensor
// value (package sensor's Set.Names), and one row per recorded step. It
// formats on the caller's goroutine into a reused buffer: a row does not
// allocate.
type SensorWriter struct {
	f    *os.File
	out  rowFile
	line []byte
	n    int
}

// sensorFlush is the size of buffered sensors.csv rows that SensorWriter
// writes out at once (whole rows).
const sensorFlush = 1 << 16

// CreateSensors creates dir/sensors.csv with its header. With resumeT ≥ 0
// it instead keeps the rows of an existing file up to time resumeT (a
// resumed run's checkpoint time) and appends after them.
func CreateSensors(dir string, names []string, resumeT float64) (*SensorWriter, error) {
	path := filepath.Join(dir, SensorsFile)
	var keep []byte
	if resumeT >= 0 {
		data, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("record: %w", err)
		}
		if err == nil {
			keep = rowsUpTo(data, resumeT)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	w := &SensorWriter{f: f, out: rowFile{f: f}, n: len(names)}
	if keep != nil {
		w.out.row(keep)
	} else {
		w.line = append(w.line[:0], 't')
		for _, n := range names {
			w.line = append(w.line, ',')
			w.line = append(w.line, n...)
		}
		w.out.row(append(w.line, '\n'))
	}
	if err := w.out.flush(); err != nil {
		f.Close()
		return nil, fmt.Errorf("record: %s: %w", SensorsFile, err)
	}
	return w, nil
}

// rowsUpTo returns the header and the rows of a sensors.csv whose t is at
// most t1.
func rowsUpTo(data []byte, t1 float64) []byte {
	end := bytes.IndexByte(data, '\n') + 1
	if end <= 0 {
		return data
	}
	for end < len(data) {
		nl := bytes.IndexByte(data[end:], '\n')
		if nl < 0 {
			break
		}
		row := data[end : end+nl]
		c := bytes.IndexByte(row, ',')
		if c < 0 {
			c = len(row)
		}
		t, err := strconv.ParseFloat(string(row[:c]), 64)
		if err != nil || t > t1 {
			break
		}
		end += nl + 1
	}
	return data[:end]
}

// Row writes one row: time t and the sensor values (as many as names).
func (w *SensorWriter) Row(t float64, values []float64) {
	w.line = AppendTime(w.line[:0], t)
	for _, x := range values[:w.n] {
		w.line = append(w.line, ',')
		w.line = AppendNumber(w.line, x)
	}
	w.line = append(w.line, '\n')
	w.out.row(w.line)
	if len(w.out.buf) >= sensorFlush {
		w.out.flush() // its error is kept and returned by Close
	}
}

// Close flushes and closes the file.
func (w *SensorWriter) Close() error {
	err := errors.Join(w.out.flush(), w.f.Close())
	if err != nil {
		return fmt.Errorf("record: %s: %w", SensorsFile, err)
	}
	return nil
}

// Sensors is a sensors.csv read back: the column names (after t), the
// times, and the values per row.
type Sensors struct {
	Names  []string
	T      []float64
	Values [][]float64
	// Warnings say what was dropped: an incomplete last row.
	Warnings []string
}

// ReadSensors reads the sensors.csv of run directory dir.
func ReadSensors(dir string) (*Sensors, error) {
	path := filepath.Join(dir, SensorsFile)
	var warns []string
	data, err := completeRows(path, &warns)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(bytes.NewReader(data))
	head, err := r.Read()
	if err != nil || len(head) == 0 || head[0] != "t" {
		return nil, fmt.Errorf("record: %s: want a header starting with t (%v)", path, err)
	}
	out := &Sensors{Names: head[1:], Warnings: warns}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("record: %s: %w", path, err)
		}
		vals := make([]float64, len(rec))
		for i, s := range rec {
			if vals[i], err = strconv.ParseFloat(s, 64); err != nil {
				return nil, fmt.Errorf("record: %s:%d: column %s: %q is not a number", path, line, head[i], s)
			}
		}
		out.T = append(out.T, vals[0])
		out.Values = append(out.Values, vals[1:])
	}
}
