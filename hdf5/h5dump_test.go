package hdf5

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// The golden files testdata/h5dump/<file>.txt.gz hold the output of
//
//	h5dump -e -y -w 0 -m %.17g <file>
//
// (every dataset of the file, strings escaped, 17 significant digits so
// that every float64 round-trips). Regenerate them with
//
//	go test ./hdf5 -run TestDatasetsMatchH5dump -update
var update = flag.Bool("update", false, "regenerate testdata/h5dump/*.txt.gz with h5dump")

// h5dumpArgs are the options giving an exact, parseable dump.
var h5dumpArgs = []string{"-e", "-y", "-w", "0", "-m", "%.17g"}

// dumpedDataset is one dataset as printed by h5dump.
type dumpedDataset struct {
	typ    string   // DATATYPE line: H5T_STD_I32LE, H5T_IEEE_F64LE, H5T_STRING
	tokens []string // values: numbers as printed, strings unescaped
}

// runH5dump runs h5dump on file and returns its output.
func runH5dump(file string) ([]byte, error) {
	out, err := exec.Command("h5dump", append(h5dumpArgs, file)...).Output()
	if err != nil {
		return nil, fmt.Errorf("h5dump %s: %w", file, err)
	}
	return out, nil
}

func goldenPath(file string) string {
	return filepath.Join("testdata", "h5dump", filepath.Base(file)+".txt.gz")
}

// writeGolden stores h5dump's output for file, gzip-compressed.
func writeGolden(file string, out []byte) error {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(out)
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(goldenPath(file)), 0o755); err != nil {
		return err
	}
	return os.WriteFile(goldenPath(file), buf.Bytes(), 0o644)
}

// readGolden returns the stored h5dump output for file.
func readGolden(file string) ([]byte, error) {
	f, err := os.Open(goldenPath(file))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// parseH5dump extracts every dataset (path → type and values) from a full
// h5dump listing. It tracks the GROUP/DATASET nesting by the lines that
// open ("... {") and close ("}") blocks.
func parseH5dump(out []byte) (map[string]*dumpedDataset, error) {
	sets := map[string]*dumpedDataset{}
	var stack []string // names of the open blocks ("" for non-group blocks)
	var cur *dumpedDataset
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	inData := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case inData && line == "}":
			inData = false
			stack = stack[:len(stack)-1]
		case inData:
			toks, err := dataTokens(line, cur.typ)
			if err != nil {
				return nil, err
			}
			cur.tokens = append(cur.tokens, toks...)
		case line == "}":
			if len(stack) == 0 {
				return nil, fmt.Errorf("h5dump output: unbalanced }")
			}
			stack = stack[:len(stack)-1]
		case strings.HasPrefix(line, "GROUP "):
			stack = append(stack, quoted(line))
		case strings.HasPrefix(line, "DATASET "):
			cur = &dumpedDataset{}
			sets[joinPath(stack, quoted(line))] = cur
			stack = append(stack, "")
		case strings.HasPrefix(line, "DATATYPE"):
			cur.typ = strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(line, "DATATYPE")), " {")
			if strings.HasSuffix(line, "{") {
				stack = append(stack, "")
			}
		case line == "DATA {":
			inData = true
			stack = append(stack, "")
		case strings.HasSuffix(line, "{"):
			stack = append(stack, "")
		}
	}
	return sets, sc.Err()
}

// joinPath builds a dataset path from the open group names.
func joinPath(stack []string, name string) string {
	p := ""
	for _, s := range stack {
		if s != "" && s != "/" {
			p += "/" + s
		}
	}
	return p + "/" + name
}

// quoted returns the first double-quoted word of line.
func quoted(line string) string {
	i := strings.IndexByte(line, '"')
	j := strings.LastIndexByte(line, '"')
	if i < 0 || j <= i {
		return ""
	}
	return line[i+1 : j]
}

// dataTokens splits one line of a DATA block into values.
func dataTokens(line, typ string) ([]string, error) {
	if typ != "H5T_STRING" {
		return strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' }), nil
	}
	var toks []string
	for rest := strings.TrimSpace(line); rest != ""; rest = strings.TrimLeft(rest, ", ") {
		s, n, err := unescapeH5dump(rest)
		if err != nil {
			return nil, err
		}
		toks = append(toks, s)
		rest = rest[n:]
	}
	return toks, nil
}

// unescapeH5dump decodes a double-quoted string as h5dump -e prints it: C
// escapes, and octal escapes of sign-extended chars (\37777777650 is byte
// 0350). It returns the string and the number of input bytes consumed.
func unescapeH5dump(s string) (string, int, error) {
	if s == "" || s[0] != '"' {
		return "", 0, fmt.Errorf("h5dump string %q: missing opening quote", s)
	}
	var b []byte
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return string(b), i + 1, nil
		case c != '\\':
			b = append(b, c)
		case i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i+1:j], 8, 64)
			b = append(b, byte(v))
			i = j - 1
		case i+1 < len(s):
			i++
			b = append(b, cEscape(s[i]))
		}
	}
	return "", 0, fmt.Errorf("h5dump string %q: missing closing quote", s)
}

// cEscape maps the letter of a C escape to its byte.
func cEscape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'a':
		return '\a'
	case 'v':
		return '\v'
	}
	return c // \\ and \"
}
