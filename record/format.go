package record

import (
	"fmt"
	"math"
	"strconv"
)

// Format is the encoding of a run's per-step files.
type Format int

// The formats: CSV (steps.csv, trajectory.csv, contacts.csv) and Parquet
// (steps.parquet, trajectory.parquet, contacts.parquet; zstd-compressed).
const (
	CSV Format = iota
	Parquet
)

// String returns the format's name as ParseFormat accepts it.
func (f Format) String() string {
	switch f {
	case CSV:
		return "csv"
	case Parquet:
		return "parquet"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat returns the format named "csv" or "parquet".
func ParseFormat(s string) (Format, error) {
	switch s {
	case "csv", "":
		return CSV, nil
	case "parquet":
		return Parquet, nil
	}
	return 0, fmt.Errorf("record: unknown output format %q (csv or parquet)", s)
}

// fileNames returns the steps, trajectory, contacts, constraints and joints
// file names of f.
func (f Format) fileNames() [5]string {
	ext := "." + f.String()
	return [5]string{"steps" + ext, "trajectory" + ext, "contacts" + ext, "constraints" + ext, "joints" + ext}
}

// AppendNumber appends x in the shortest form that round-trips
// (strconv 'g', -1), and a non-finite x as nan, inf or -inf, which
// strconv.ParseFloat reads back.
func AppendNumber(b []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		return append(b, "nan"...)
	case math.IsInf(x, 1):
		return append(b, "inf"...)
	case math.IsInf(x, -1):
		return append(b, "-inf"...)
	}
	return strconv.AppendFloat(b, x, 'g', -1, 64)
}

// AppendTime appends a time with 15 significant digits, which hides the
// round-off of t = t0 + n δt (0.30000000000000004 is written 0.3) and keeps
// every step's time distinct for any run shorter than 10¹⁰ steps.
func AppendTime(b []byte, t float64) []byte {
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return AppendNumber(b, t)
	}
	return strconv.AppendFloat(b, t, 'g', 15, 64)
}
