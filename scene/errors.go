package scene

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// FieldError is one problem found while loading or validating a scene. Parse,
// Load and Validate return every problem they find, joined with errors.Join;
// use errors.As to get at the first, or the Unwrap() []error method of the
// joined error to get at all of them.
type FieldError struct {
	File string // scene file name as given to Parse or Validate
	Line int    // 1-based line in the file, 0 if unknown
	Path string // field path such as "bodies[1].shape.radius"; "" for the whole file
	Msg  string // what is wrong, starting with the offending value where there is one
	Set  string // the --set argument that supplied the value, if any
}

// Error formats the problem as "file:line: path: msg (from --set arg)",
// leaving out the parts that are unknown.
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(oneLine.Replace(e.Path))
		b.WriteString(": ")
	}
	b.WriteString(oneLine.Replace(e.Msg))
	if e.Set != "" {
		fmt.Fprintf(&b, " (from --set %s)", showArg(e.Set))
	}
	return b.String()
}

// oneLine escapes line breaks so that every problem is one line of the
// joined error (names and values from the file may contain them).
var oneLine = strings.NewReplacer("\n", `\n`, "\r", `\r`)

// loc is where a field path's value came from.
type loc struct {
	line   int    // 1-based line, 0 if unknown
	set    string // --set argument that supplied it, if any
	parent string // enclosing path
}

// locs maps the field paths present in a document ("bodies[1].mass") to
// where they were written.
type locs map[string]loc

// find returns the location of path, or of its nearest enclosing path that
// has one.
func (l locs) find(path string) loc {
	for {
		x, ok := l[path]
		if ok && (x.line > 0 || x.set != "") {
			return x
		}
		if path == "" {
			return loc{}
		}
		if ok {
			path = x.parent
		} else {
			path = trimPath(path)
		}
	}
}

// has reports whether the document contained path.
func (l locs) has(path string) bool {
	_, ok := l[path]
	return ok
}

// trimPath removes the last segment of a field path: "a.b[2]" → "a.b",
// "a.b" → "a".
func trimPath(p string) string {
	if strings.HasSuffix(p, "]") {
		if i := strings.LastIndexByte(p, '['); i >= 0 {
			return p[:i]
		}
	}
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[:i]
	}
	return ""
}

// fnum formats a number for a message: shortest round-trip form, NaN, +Inf.
func fnum(v float64) string {
	if math.IsNaN(v) {
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// fvec formats a vector for a message.
func fvec(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fnum(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func indexPath(parent string, i int) string {
	return parent + "[" + strconv.Itoa(i) + "]"
}

// showArg returns a command-line argument as typed, or quoted if it holds
// characters that would not show (line breaks, control characters).
func showArg(s string) string {
	for _, r := range s {
		if !unicode.IsGraphic(r) || (unicode.IsSpace(r) && r != ' ') {
			return strconv.Quote(s)
		}
	}
	return s
}
