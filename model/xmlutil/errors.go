package xmlutil

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a problem in a model file that stops the import. Every field
// that is known is set; Error() prints them as
// "file:line: <element> attribute=\"value\": message".
type Error struct {
	File      string
	Line      int
	Element   string // element name, e.g. "joint"
	Attribute string // attribute name, or "" for the element itself or its text
	Value     string // the offending value as written
	Msg       string
}

// Error formats the problem on one line.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Element != "" {
		b.WriteString("<" + e.Element + ">")
		if e.Attribute != "" {
			b.WriteString(" " + e.Attribute)
			b.WriteString("=" + strconv.Quote(clip(e.Value)))
		} else if e.Value != "" {
			b.WriteString(" " + strconv.Quote(clip(e.Value)))
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return oneLine.Replace(b.String())
}

var oneLine = strings.NewReplacer("\n", `\n`, "\r", `\r`)

// clip shortens a long value for messages.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// Warning is a problem that does not stop the import: an element or
// attribute that is not supported (and is ignored), or a value that was
// adjusted. It names the same things as Error.
type Warning struct {
	File      string
	Line      int
	Element   string
	Attribute string
	Msg       string
}

// String formats the warning on one line: "file:line: <element>
// attribute: message".
func (w Warning) String() string {
	var b strings.Builder
	b.WriteString(w.File)
	if w.Line > 0 {
		b.WriteString(":" + strconv.Itoa(w.Line))
	}
	b.WriteString(": ")
	if w.Element != "" {
		b.WriteString("<" + w.Element + ">")
		if w.Attribute != "" {
			b.WriteString(" " + w.Attribute)
		}
		b.WriteString(": ")
	}
	b.WriteString(w.Msg)
	return oneLine.Replace(b.String())
}

// Unused returns a warning for every element of the tree under root that no
// importer read (one per element: its subtree is not listed), and for every
// attribute that was not read on the elements that were. what describes
// the consequence, e.g. "not supported (ignored)".
func Unused(file string, root *Element, what string) []Warning {
	var out []Warning
	var walk func(e *Element)
	walk = func(e *Element) {
		f := file
		if e.File != "" {
			f = e.File
		}
		if !e.used {
			out = append(out, Warning{File: f, Line: e.Line, Element: e.Name, Msg: "element " + what})
			return
		}
		for _, a := range e.Attrs {
			if !a.used {
				out = append(out, Warning{File: f, Line: a.Line, Element: e.Name, Attribute: a.Name, Msg: "attribute " + what})
			}
		}
		for _, c := range e.Children {
			walk(c)
		}
	}
	walk(root)
	return out
}

// Reader reads typed attributes of one file's elements and collects
// warnings. The zero value is not usable; set File.
type Reader struct {
	File     string
	Warnings []Warning
}

// Errorf returns an *Error for attribute attr of e ("" for the element).
// The value is filled in from the attribute.
func (r *Reader) Errorf(e *Element, attr, format string, args ...any) error {
	err := &Error{File: r.File, Msg: fmt.Sprintf(format, args...)}
	if e != nil {
		if e.File != "" {
			err.File = e.File
		}
		err.Line, err.Element, err.Attribute = e.Line, e.Name, attr
		if attr != "" {
			err.Line = e.AttrLine(attr)
			err.Value, _ = e.Attr(attr)
		}
	}
	return err
}

// TextErrorf returns an *Error about the text of e, quoting it.
func (r *Reader) TextErrorf(e *Element, format string, args ...any) error {
	f := r.File
	if e.File != "" {
		f = e.File
	}
	return &Error{File: f, Line: e.Line, Element: e.Name, Value: strings.TrimSpace(e.Text), Msg: fmt.Sprintf(format, args...)}
}

// Warnf records a warning about attribute attr of e ("" for the element).
func (r *Reader) Warnf(e *Element, attr, format string, args ...any) {
	w := Warning{File: r.File, Msg: fmt.Sprintf(format, args...)}
	if e != nil {
		if e.File != "" {
			w.File = e.File
		}
		w.Line, w.Element, w.Attribute = e.Line, e.Name, attr
		if attr != "" {
			w.Line = e.AttrLine(attr)
		}
	}
	r.Warnings = append(r.Warnings, w)
}
