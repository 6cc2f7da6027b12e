package scene

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

var sceneType = reflect.TypeFor[Scene]()

// maxVisits bounds the schema walk, which follows YAML aliases, so that a
// document built to expand exponentially ("billion laughs") fails quickly.
const maxVisits = 1 << 20

// checker walks a YAML node tree alongside the Go type it will be decoded
// into. It reports unknown and duplicate keys, nodes of the wrong kind (a list
// where a mapping belongs), lists of the wrong length and scalars that are
// not numbers, integers or booleans where those are needed, each with its
// field path and line. It also records where every field path was written,
// for the validator's messages.
type checker struct {
	file   string
	origin map[*yaml.Node]string // nodes supplied by --set, to the argument
	locs   locs
	errs   []error
	visits int
}

func (c *checker) errAt(n *yaml.Node, set, path, format string, args ...any) {
	e := &FieldError{File: c.file, Path: path, Msg: fmt.Sprintf(format, args...), Set: set}
	if set == "" && n != nil {
		e.Line = n.Line
	}
	c.errs = append(c.errs, e)
}

// fieldErr builds an error for path with the location recorded by the walk.
func (c *checker) fieldErr(path, msg string) error {
	l := c.locs.find(path)
	return &FieldError{File: c.file, Line: l.line, Path: path, Msg: msg, Set: l.set}
}

// originOf returns the --set argument that supplied n, or set.
func (c *checker) originOf(n *yaml.Node, set string) string {
	if o, ok := c.origin[n]; ok {
		return o
	}
	return set
}

// record notes that path was written at node key (or n) under parent.
func (c *checker) record(path, parent string, n *yaml.Node, set string) {
	if _, ok := c.locs[path]; ok {
		return // keep the first (an explicit key beats a merged one)
	}
	l := loc{parent: parent, set: set}
	if set == "" && n != nil {
		l.line = n.Line
	}
	c.locs[path] = l
}

// walk checks node n against type t at field path; set is the --set argument
// that supplied n or an enclosing node, if any.
func (c *checker) walk(n *yaml.Node, t reflect.Type, path, set string) {
	c.visits++
	if c.visits == maxVisits {
		c.errAt(n, set, path, "document too large or too deeply aliased")
	}
	if c.visits >= maxVisits {
		return
	}
	if o, ok := c.origin[n]; ok {
		set = o
	}
	for n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return
		}
		n = n.Alias
	}
	if isNull(n) {
		return // decodes to the zero value: "not given"
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		c.walkStruct(n, t, path, set)
	case reflect.Map:
		c.walkMap(n, t, path, set)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			c.errAt(n, set, path, "%s must be a list", describe(n))
			return
		}
		for i, e := range n.Content {
			p := indexPath(path, i)
			c.record(p, path, e, c.originOf(e, set))
			c.walk(e, t.Elem(), p, set)
		}
	case reflect.Array:
		if n.Kind != yaml.SequenceNode {
			c.errAt(n, set, path, "%s must be a list of %d %s", describe(n), t.Len(), plural(t.Elem()))
			return
		}
		if len(n.Content) != t.Len() {
			c.errAt(n, set, path, "%s must have %d elements, has %d", flowText(n), t.Len(), len(n.Content))
			return
		}
		for i, e := range n.Content {
			p := indexPath(path, i)
			c.record(p, path, e, c.originOf(e, set))
			c.walk(e, t.Elem(), p, set)
		}
	case reflect.Float64:
		if n.Kind != yaml.ScalarNode {
			c.errAt(n, set, path, "%s must be a number", describe(n))
			return
		}
		var x float64
		if tag := n.ShortTag(); (tag != "!!int" && tag != "!!float") || n.Decode(&x) != nil {
			c.errAt(n, set, path, "%q is not a number", n.Value)
		}
	case reflect.Int:
		if n.Kind != yaml.ScalarNode {
			c.errAt(n, set, path, "%s must be an integer", describe(n))
			return
		}
		var x int
		if n.ShortTag() != "!!int" || n.Decode(&x) != nil {
			c.errAt(n, set, path, "%q is not an integer", n.Value)
		}
	case reflect.Bool:
		var x bool
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || n.Decode(&x) != nil {
			c.errAt(n, set, path, "%s must be true or false", describe(n))
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			c.errAt(n, set, path, "%s must be a string", describe(n))
		}
	default:
		panic("scene: schema walk: unhandled type " + t.String())
	}
}

func (c *checker) walkStruct(n *yaml.Node, t reflect.Type, path, set string) {
	what := path
	if what == "" {
		what = "scene"
	}
	if n.Kind != yaml.MappingNode {
		c.errAt(n, set, path, "%s must be a mapping with fields %s", describe(n), strings.Join(fieldNames(t), ", "))
		return
	}
	fields := structFields(t)
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		kset := set
		if o, ok := c.origin[k]; ok {
			kset = o
		}
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			c.walkMerge(v, t, path, kset)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			c.errAt(k, kset, path, "%s is not a valid key (keys are field names)", describe(k))
			continue
		}
		p := joinPath(path, k.Value)
		if line, dup := seen[k.Value]; dup {
			c.errAt(k, kset, p, "duplicate key (first given at line %d)", line)
			continue
		}
		seen[k.Value] = k.Line
		ft, ok := fields[k.Value]
		if !ok {
			msg := "unknown field"
			if s := suggest(k.Value, fieldNames(t)); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			c.errAt(k, kset, p, "%s %q; %s fields are: %s", msg, k.Value, what, strings.Join(fieldNames(t), ", "))
			continue
		}
		c.record(p, path, k, c.originOf(v, kset))
		c.walk(v, ft, p, kset)
	}
}

// walkMerge checks the mapping(s) merged into a struct by a YAML "<<" key.
func (c *checker) walkMerge(v *yaml.Node, t reflect.Type, path, set string) {
	for v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	if v.Kind == yaml.SequenceNode {
		for _, e := range v.Content {
			c.walk(e, t, path, set)
		}
		return
	}
	c.walk(v, t, path, set)
}

func (c *checker) walkMap(n *yaml.Node, t reflect.Type, path, set string) {
	if n.Kind != yaml.MappingNode {
		c.errAt(n, set, path, "%s must be a mapping from names to entries", describe(n))
		return
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		kset := set
		if o, ok := c.origin[k]; ok {
			kset = o
		}
		for k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
			c.errAt(k, kset, path, "%s is not a valid name", describe(k))
			continue
		}
		p := joinPath(path, k.Value)
		if line, dup := seen[k.Value]; dup {
			c.errAt(k, kset, p, "duplicate key (first given at line %d)", line)
			continue
		}
		seen[k.Value] = k.Line
		c.record(p, path, k, c.originOf(v, kset))
		c.walk(v, t.Elem(), p, kset)
	}
}

// structFields maps the YAML keys of struct type t to their field types.
func structFields(t reflect.Type) map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if name := yamlName(f); name != "" {
			m[name] = f.Type
		}
	}
	return m
}

// fieldNames lists the YAML keys of struct type t in declaration order.
func fieldNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		if name := yamlName(t.Field(i)); name != "" {
			names = append(names, name)
		}
	}
	return names
}

func yamlName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	tag := f.Tag.Get("yaml")
	if tag == "-" {
		return ""
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		name = strings.ToLower(f.Name)
	}
	return name
}

func plural(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Float64:
		return "numbers"
	case reflect.Array:
		return "lists"
	}
	return "values"
}

// flowText renders a short sequence for a message, e.g. [0, -9.81].
func flowText(n *yaml.Node) string {
	parts := make([]string, 0, len(n.Content))
	for _, e := range n.Content {
		if e.Kind == yaml.ScalarNode {
			parts = append(parts, e.Value)
		} else {
			parts = append(parts, "…")
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// suggest returns the candidate closest to s in edit distance if it is close
// enough to be a likely typo.
func suggest(s string, candidates []string) string {
	best, bestD := "", min(3, len(s)/3+1)
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 30
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
