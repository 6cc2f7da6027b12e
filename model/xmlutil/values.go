package xmlutil

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseFloats splits s at white space (and commas) into finite numbers.
// With n ≥ 0 exactly n numbers are required. The error message says what is
// wrong without naming the place; the Reader methods add that.
func ParseFloats(s string, n int) ([]float64, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == ','
	})
	if n >= 0 && len(fields) != n {
		return nil, fmt.Errorf("want %d numbers, got %d", n, len(fields))
	}
	out := make([]float64, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a finite number", f)
		}
		out[i] = v
	}
	return out, nil
}

// Floats reads attribute attr of e as n numbers (any count if n < 0).
// ok is false when the attribute is absent.
func (r *Reader) Floats(e *Element, attr string, n int) (v []float64, ok bool, err error) {
	s, ok := e.Attr(attr)
	if !ok {
		return nil, false, nil
	}
	v, err = ParseFloats(s, n)
	if err != nil {
		return nil, true, r.Errorf(e, attr, "%v", err)
	}
	return v, true, nil
}

// Float reads attribute attr of e as one number, or def when absent.
func (r *Reader) Float(e *Element, attr string, def float64) (float64, error) {
	v, ok, err := r.Floats(e, attr, 1)
	if err != nil || !ok {
		return def, err
	}
	return v[0], nil
}

// Vec3 reads attribute attr of e as three numbers, or def when absent.
func (r *Reader) Vec3(e *Element, attr string, def [3]float64) ([3]float64, error) {
	v, ok, err := r.Floats(e, attr, 3)
	if err != nil || !ok {
		return def, err
	}
	return [3]float64(v), nil
}

// Int reads attribute attr of e as an integer, or def when absent.
func (r *Reader) Int(e *Element, attr string, def int) (int, error) {
	s, ok := e.Attr(attr)
	if !ok {
		return def, nil
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return def, r.Errorf(e, attr, "not an integer")
	}
	return v, nil
}

// Bool reads attribute attr of e as a boolean (true/false, also 1/0), or
// def when absent.
func (r *Reader) Bool(e *Element, attr string, def bool) (bool, error) {
	s, ok := e.Attr(attr)
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return def, r.Errorf(e, attr, "want true or false")
}

// Keyword reads attribute attr of e, which must be one of allowed (def when
// absent).
func (r *Reader) Keyword(e *Element, attr, def string, allowed ...string) (string, error) {
	s, ok := e.Attr(attr)
	if !ok {
		return def, nil
	}
	s = strings.TrimSpace(s)
	for _, a := range allowed {
		if s == a {
			return s, nil
		}
	}
	return def, r.Errorf(e, attr, "want one of %s", strings.Join(allowed, ", "))
}

// Required returns the value of attribute attr of e, or an error when it is
// missing or blank.
func (r *Reader) Required(e *Element, attr string) (string, error) {
	s, ok := e.Attr(attr)
	if !ok {
		return "", r.Errorf(e, attr, "missing (required)")
	}
	if strings.TrimSpace(s) == "" {
		return "", r.Errorf(e, attr, "empty (required)")
	}
	return s, nil
}

// TextFloats reads the text of e as n numbers (any count if n < 0).
func (r *Reader) TextFloats(e *Element, n int) ([]float64, error) {
	v, err := ParseFloats(e.TrimText(), n)
	if err != nil {
		return nil, r.TextErrorf(e, "%v", err)
	}
	return v, nil
}

// ChildFloat reads the text of e's child named name as one number, or def
// when there is no such child.
func (r *Reader) ChildFloat(e *Element, name string, def float64) (float64, error) {
	c := e.Child(name)
	if c == nil {
		return def, nil
	}
	v, err := r.TextFloats(c, 1)
	if err != nil {
		return def, err
	}
	return v[0], nil
}

// ChildText returns the trimmed text of e's child named name ("" and false
// when absent).
func (r *Reader) ChildText(e *Element, name string) (string, bool) {
	c := e.Child(name)
	if c == nil {
		return "", false
	}
	return c.TrimText(), true
}

// ChildBool reads the text of e's child named name as a boolean.
func (r *Reader) ChildBool(e *Element, name string, def bool) (bool, error) {
	c := e.Child(name)
	if c == nil {
		return def, nil
	}
	switch strings.ToLower(c.TrimText()) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return def, r.TextErrorf(c, "want true or false")
}
