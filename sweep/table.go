package sweep

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/stiction-sim/stiction/record"
)

// Table file names in a sweep's output directory.
const (
	TableCSV     = "results.csv"
	TableParquet = "results.parquet"
)

// WriteTables writes the results, one row per job in job order, to
// dir/results.csv and dir/results.parquet (each through a temporary file
// and a rename).
func (p *Plan) WriteTables(dir string, results []Result) error {
	rs := slices.Clone(results)
	slices.SortFunc(rs, func(a, b Result) int { return a.Index - b.Index })
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(p.Columns())
	for i := range rs {
		w.Write(p.Row(&rs[i]))
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	if err := record.WriteFileAtomic(filepath.Join(dir, TableCSV), buf.Bytes()); err != nil {
		return err
	}
	data, err := p.parquetTable(rs)
	if err != nil {
		return fmt.Errorf("sweep: %s: %w", TableParquet, err)
	}
	return record.WriteFileAtomic(filepath.Join(dir, TableParquet), data)
}

// parquetTable encodes the table: job, repeat and status_step as int64,
// statistics and wall time as double, a swept path as double if all its
// values are numbers and as a string otherwise, status and message as
// strings.
func (p *Plan) parquetTable(rs []Result) ([]byte, error) {
	numeric := make([]bool, len(p.Paths))
	for i := range p.Paths {
		numeric[i] = true
		for _, r := range rs {
			if _, err := strconv.ParseFloat(r.Params[i], 64); err != nil {
				numeric[i] = false
				break
			}
		}
	}
	g := parquet.Group{
		"job": parquet.Leaf(parquet.Int64Type), "repeat": parquet.Leaf(parquet.Int64Type),
		"status": parquet.String(), "status_step": parquet.Leaf(parquet.Int64Type), "message": parquet.String(),
		"wall_time_s": parquet.Leaf(parquet.DoubleType),
	}
	for i, path := range p.Paths {
		g[path] = parquet.String()
		if numeric[i] {
			g[path] = parquet.Leaf(parquet.DoubleType)
		}
	}
	for _, s := range p.Outputs {
		g[s] = parquet.Leaf(parquet.DoubleType)
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[map[string]any](&buf, parquet.NewSchema("sweep", g), parquet.Compression(&parquet.Zstd))
	rows := make([]map[string]any, 0, len(rs))
	for _, r := range rs {
		m := map[string]any{"job": int64(r.Index), "repeat": int64(r.Repeat), "status": r.Status,
			"status_step": int64(r.Step), "message": r.Message, "wall_time_s": r.WallS}
		for i, path := range p.Paths {
			m[path] = r.Params[i]
			if numeric[i] {
				m[path], _ = strconv.ParseFloat(r.Params[i], 64)
			}
		}
		for _, s := range p.Outputs {
			m[s] = r.Stats[s]
		}
		rows = append(rows, m)
	}
	if _, err := w.Write(rows); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Table is a results table read back.
type Table struct {
	Columns []string
	Rows    [][]string
}

// ReadTable reads a sweep's results.csv (path is the file or the sweep's
// output directory).
func ReadTable(path string) (*Table, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, TableCSV)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("sweep: %s: %w", path, err)
	}
	if len(rows) == 0 || len(rows[0]) < 2 || rows[0][0] != "job" {
		return nil, fmt.Errorf("sweep: %s is not a sweep table (its header must start with job)", path)
	}
	return &Table{Columns: rows[0], Rows: rows[1:]}, nil
}

// Column returns the values of the named column as numbers (NaN where a
// cell is not a number), or an error naming the columns there are.
func (t *Table) Column(name string) ([]float64, error) {
	j := slices.Index(t.Columns, name)
	if j < 0 {
		return nil, fmt.Errorf("sweep: the table has no column %q (have %v)", name, t.Columns)
	}
	out := make([]float64, len(t.Rows))
	for i, r := range t.Rows {
		x, err := strconv.ParseFloat(r[j], 64)
		if err != nil {
			x = math.NaN()
		}
		out[i] = x
	}
	return out, nil
}
