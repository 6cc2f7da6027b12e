package xmlutil

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Limits on a document, checked while it is read.
const (
	MaxDepth    = 256     // deepest element nesting accepted
	MaxElements = 1 << 20 // most elements accepted in one document
)

// Attr is one attribute of an element, with the line it was written on.
type Attr struct {
	Name  string // with its namespace prefix, as written: "drake:gear_ratio"
	Value string
	Line  int
	used  bool
}

// Element is one XML element. Text is the concatenated character data
// directly inside it (not in children). Reading an element through the
// accessors below marks it (or the attribute) used; Unused reports the rest.
type Element struct {
	Name     string // with its namespace prefix, as written
	Attrs    []Attr
	Children []*Element
	Text     string
	Line     int
	File     string // the file the element was read from (documents may splice others in)
	Parent   *Element
	used     bool
}

// Parse reads the XML document in data into an element tree and returns its
// root element. file names the document in errors.
func Parse(file string, data []byte) (*Element, error) {
	lines := lineIndex(data)
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var root *Element
	var stack []*Element
	var text [][]byte
	n := 0
	for {
		off := d.InputOffset()
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &Error{File: file, Line: lineOf(lines, d.InputOffset()), Msg: "malformed XML: " + xmlMsg(err)}
		}
		line := lineOf(lines, off)
		switch t := tok.(type) {
		case xml.StartElement:
			n++
			if n > MaxElements {
				return nil, &Error{File: file, Line: line, Msg: fmt.Sprintf("more than %d elements", MaxElements)}
			}
			if len(stack) >= MaxDepth {
				return nil, &Error{File: file, Line: line, Element: qname(t.Name), Msg: fmt.Sprintf("elements nested deeper than %d", MaxDepth)}
			}
			e := &Element{Name: qname(t.Name), Line: line, File: file}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
					continue // namespace declarations are not data
				}
				for _, b := range e.Attrs {
					if b.Name == qname(a.Name) {
						return nil, &Error{File: file, Line: line, Element: e.Name, Attribute: b.Name, Msg: "attribute given twice"}
					}
				}
				e.Attrs = append(e.Attrs, Attr{Name: qname(a.Name), Value: a.Value, Line: attrLine(lines, data, off, d.InputOffset(), qname(a.Name))})
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, &Error{File: file, Line: line, Element: e.Name, Msg: "a second root element (a document has exactly one)"}
				}
				root = e
			} else {
				p := stack[len(stack)-1]
				e.Parent = p
				p.Children = append(p.Children, e)
			}
			stack = append(stack, e)
			text = append(text, nil)
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1].Name != qname(t.Name) {
				return nil, &Error{File: file, Line: line, Element: qname(t.Name), Msg: "end tag without a matching start tag"}
			}
			e := stack[len(stack)-1]
			e.Text = string(text[len(text)-1])
			stack, text = stack[:len(stack)-1], text[:len(text)-1]
		case xml.CharData:
			if len(stack) > 0 {
				text[len(text)-1] = append(text[len(text)-1], t...)
			} else if len(bytes.TrimSpace(t)) > 0 {
				return nil, &Error{File: file, Line: line, Msg: "text outside the root element"}
			}
		}
	}
	if len(stack) > 0 {
		e := stack[len(stack)-1]
		return nil, &Error{File: file, Line: e.Line, Element: e.Name, Msg: "element is not closed (the file ends first)"}
	}
	if root == nil {
		return nil, &Error{File: file, Msg: "no XML element (empty or not an XML file)"}
	}
	return root, nil
}

// xmlMsg strips encoding/xml's "XML syntax error on line N: " prefix, since
// the error carries the line itself.
func xmlMsg(err error) string {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// lineIndex returns the offsets at which lines start.
func lineIndex(data []byte) []int64 {
	idx := []int64{0}
	for i, c := range data {
		if c == '\n' {
			idx = append(idx, int64(i+1))
		}
	}
	return idx
}

// attrLine returns the line on which attribute name is written inside the
// start tag data[start:end] (the tag's first line if it is not found).
func attrLine(idx []int64, data []byte, start, end int64, name string) int {
	tag := data[start:end]
	for i := 0; ; {
		j := bytes.Index(tag[i:], []byte(name))
		if j < 0 {
			return lineOf(idx, start)
		}
		k := i + j
		before := k > 0 && isSpace(tag[k-1])
		rest := bytes.TrimLeft(tag[k+len(name):], " \t\r\n")
		if before && len(rest) > 0 && rest[0] == '=' {
			return lineOf(idx, start+int64(k))
		}
		i = k + len(name)
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// lineOf returns the 1-based line holding offset off (skipping leading
// white space is the caller's business: RawToken's offset is the start of
// the token, which for a start element is its '<').
func lineOf(idx []int64, off int64) int {
	return sort.Search(len(idx), func(i int) bool { return idx[i] > off })
}

// MarkUsed marks e as read (its attributes are not).
func (e *Element) MarkUsed() { e.used = true }

// MarkAllUsed marks e, its attributes and its whole subtree as read: for
// elements that are deliberately skipped without a warning.
func (e *Element) MarkAllUsed() {
	e.used = true
	for i := range e.Attrs {
		e.Attrs[i].used = true
	}
	for _, c := range e.Children {
		c.MarkAllUsed()
	}
}

// Has reports whether e has the attribute (without marking it used).
func (e *Element) Has(name string) bool {
	for _, a := range e.Attrs {
		if a.Name == name {
			return true
		}
	}
	return false
}

// Attr returns the attribute's value and marks it used.
func (e *Element) Attr(name string) (string, bool) {
	for i := range e.Attrs {
		if e.Attrs[i].Name == name {
			e.Attrs[i].used = true
			return e.Attrs[i].Value, true
		}
	}
	return "", false
}

// AttrLine returns the line of the attribute (the element's line if absent).
func (e *Element) AttrLine(name string) int {
	for _, a := range e.Attrs {
		if a.Name == name {
			return a.Line
		}
	}
	return e.Line
}

// Child returns the first child named name, marked used, or nil.
func (e *Element) Child(name string) *Element {
	for _, c := range e.Children {
		if c.Name == name {
			c.used = true
			return c
		}
	}
	return nil
}

// All returns the children named name, each marked used.
func (e *Element) All(name string) []*Element {
	var out []*Element
	for _, c := range e.Children {
		if c.Name == name {
			c.used = true
			out = append(out, c)
		}
	}
	return out
}

// ChildrenNamed returns the children with any of the given names, in
// document order, each marked used.
func (e *Element) ChildrenNamed(names ...string) []*Element {
	var out []*Element
	for _, c := range e.Children {
		for _, n := range names {
			if c.Name == n {
				c.used = true
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// TrimText returns the element's text with surrounding white space removed
// and marks the element used.
func (e *Element) TrimText() string {
	e.used = true
	return strings.TrimSpace(e.Text)
}

// Path names the element by its chain of ancestors, "robot/link/inertial".
func (e *Element) Path() string {
	var parts []string
	for p := e; p != nil; p = p.Parent {
		parts = append(parts, p.Name)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "/")
}
