package xmlutil

import (
	"errors"
	"strings"
	"testing"
)

func TestParseLinesAndUnused(t *testing.T) {
	src := `<?xml version="1.0"?>
<robot name="r" xmlns:drake="http://drake.mit.edu">
  <link name="a"
        extra="1">
    <inertial><mass value="2"/></inertial>
  </link>
  <gazebo><plugin/></gazebo>
  <drake:thing drake:x="3"/>
</robot>`
	root, err := Parse("r.urdf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	root.MarkUsed()
	root.Attr("name")
	l := root.Child("link")
	l.Attr("name")
	r := &Reader{File: "r.urdf"}
	m, err := r.Float(l.Child("inertial").Child("mass"), "value", 0)
	if err != nil || m != 2 {
		t.Fatalf("mass %v %v", m, err)
	}
	if l.Line != 3 || l.AttrLine("extra") != 4 {
		t.Errorf("lines: link %d extra %d", l.Line, l.AttrLine("extra"))
	}
	ws := Unused("r.urdf", root, "not supported (ignored)")
	var got []string
	for _, w := range ws {
		got = append(got, w.String())
	}
	want := []string{
		`r.urdf:4: <link> extra: attribute not supported (ignored)`,
		`r.urdf:7: <gazebo>: element not supported (ignored)`,
		`r.urdf:8: <drake:thing>: element not supported (ignored)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", "f.xml: no XML element"},
		{"   \n ", "f.xml: no XML element"},
		{"<a><b></a>", "f.xml:1: "},
		{"<a>\n<b>\n", "f.xml:2: <b>: element is not closed"},
		{"<a/><b/>", "f.xml:1: <b>: a second root element"},
		{"<a x='1' x='2'/>", "f.xml:1: <a> x=\"\": attribute given twice"},
		{"<a>\n</b>", "f.xml:2: <b>: end tag without a matching start tag"},
		{strings.Repeat("<a>", MaxDepth+1), "nested deeper than 256"},
		{"x<a/>", "text outside the root element"},
	} {
		_, err := Parse("f.xml", []byte(c.src))
		var xe *Error
		if !errors.As(err, &xe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an *Error containing %q", c.src, err, c.want)
		}
	}
}

func TestReaderValues(t *testing.T) {
	root, err := Parse("f.xml", []byte(`<a v="1 2 nan" w="1 2" i="x" b="maybe" k="c"/>`))
	if err != nil {
		t.Fatal(err)
	}
	r := &Reader{File: "f.xml"}
	for name, f := range map[string]func() error{
		"nan":     func() error { _, err := r.Vec3(root, "v", [3]float64{}); return err },
		"count":   func() error { _, err := r.Vec3(root, "w", [3]float64{}); return err },
		"int":     func() error { _, err := r.Int(root, "i", 0); return err },
		"bool":    func() error { _, err := r.Bool(root, "b", false); return err },
		"keyword": func() error { _, err := r.Keyword(root, "k", "a", "a", "b"); return err },
		"missing": func() error { _, err := r.Required(root, "zz"); return err },
	} {
		err := f()
		var xe *Error
		if !errors.As(err, &xe) || xe.File != "f.xml" || xe.Line != 1 || xe.Element != "a" || xe.Attribute == "" {
			t.Errorf("%s: got %#v", name, err)
		}
	}
}
