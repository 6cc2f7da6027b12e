package scene

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// applySets applies the --set overrides, in order, to the scene's top-level
// mapping and returns the nodes each one put into the tree (values, created
// keys and mappings), mapped to its argument, so that later messages about
// them can name the --set argument instead of a line.
//
// An override is "path=value". The path is dot-separated: on a mapping a
// segment selects a key (created, with any missing intermediate mappings, if
// absent); on a list a segment is an index ("bodies.0", also written
// "bodies[0]") or the name field of an element ("bodies.ball"). The value is
// parsed as YAML (a scalar, a flow list [a, b] or a flow mapping {k: v}); an
// empty value is null, which restores a field's default.
func applySets(file string, root *yaml.Node, sets []string) (map[*yaml.Node]string, error) {
	origin := map[*yaml.Node]string{}
	var errs []error
	for _, arg := range sets {
		if err := applySet(root, arg, origin); err != nil {
			errs = append(errs, &FieldError{File: file, Msg: fmt.Sprintf("--set %q: %v", arg, err)})
		}
	}
	return origin, errors.Join(errs...)
}

var bracketIndexRE = regexp.MustCompile(`\[(\d+)\]`)

// splitSetPath splits a --set path into segments, accepting "a[0].b" as
// "a.0.b".
func splitSetPath(path string) ([]string, error) {
	if strings.TrimSpace(path) == "" {
		return nil, errors.New("empty path before '='")
	}
	path = bracketIndexRE.ReplaceAllString(path, ".$1")
	segs := strings.Split(path, ".")
	for i, s := range segs {
		if s == "" {
			return nil, fmt.Errorf("empty segment %d in path %q", i+1, path)
		}
	}
	return segs, nil
}

func applySet(root *yaml.Node, arg string, origin map[*yaml.Node]string) error {
	path, value, ok := strings.Cut(arg, "=")
	if !ok {
		return errors.New("missing '=' (want path=value, e.g. bodies.ball.mass=2)")
	}
	path = strings.TrimSpace(path)
	segs, err := splitSetPath(path)
	if err != nil {
		return err
	}
	val, err := parseSetValue(value)
	if err != nil {
		return err
	}
	mark(val, arg, origin)

	cur := root
	for i, seg := range segs {
		last := i == len(segs)-1
		where := "the top level"
		if i > 0 {
			where = strconv.Quote(strings.Join(segs[:i], "."))
		}
		switch cur.Kind {
		case yaml.MappingNode:
			vi := -1
			for j := 0; j+1 < len(cur.Content); j += 2 {
				if k := cur.Content[j]; k.Kind == yaml.ScalarNode && k.Value == seg {
					vi = j + 1
					break
				}
			}
			switch {
			case last && vi >= 0:
				cur.Content[vi] = val
			case last:
				key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: seg}
				origin[key] = arg
				cur.Content = append(cur.Content, key, val)
			case vi >= 0 && isNull(cur.Content[vi]):
				m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
				origin[m] = arg
				cur.Content[vi] = m
				cur = m
			case vi >= 0:
				cur = cur.Content[vi]
			default:
				key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: seg}
				m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
				origin[key], origin[m] = arg, arg
				cur.Content = append(cur.Content, key, m)
				cur = m
			}
		case yaml.SequenceNode:
			idx, err := seqIndex(cur, seg, where)
			if err != nil {
				return err
			}
			if last {
				cur.Content[idx] = val
			} else {
				cur = cur.Content[idx]
			}
		case yaml.ScalarNode:
			return fmt.Errorf("cannot set %q inside %s: it is the scalar %q, not a mapping or list", seg, where, cur.Value)
		case yaml.AliasNode:
			return fmt.Errorf("cannot set %q inside %s: it is a YAML alias (*%s); edit the anchored node instead", seg, where, cur.Value)
		default:
			return fmt.Errorf("cannot set %q inside %s", seg, where)
		}
	}
	return nil
}

// seqIndex resolves a path segment on a list: an index, or the name field of
// an element.
func seqIndex(seq *yaml.Node, seg, where string) (int, error) {
	if isDigits(seg) {
		i, err := strconv.Atoi(seg)
		if err != nil || i >= len(seq.Content) {
			return 0, fmt.Errorf("index %s out of range: %s has %d elements", seg, where, len(seq.Content))
		}
		return i, nil
	}
	found := -1
	var names []string
	for i, e := range seq.Content {
		name, ok := elementName(e)
		if !ok {
			continue
		}
		names = append(names, name)
		if name == seg {
			if found >= 0 {
				return 0, fmt.Errorf("%s has more than one element named %q (elements %d and %d)", where, seg, found, i)
			}
			found = i
		}
	}
	if found < 0 {
		if len(names) == 0 {
			return 0, fmt.Errorf("no element named %q in %s (its elements have no names; use an index)", seg, where)
		}
		return 0, fmt.Errorf("no element named %q in %s (names: %s)", seg, where, strings.Join(names, ", "))
	}
	return found, nil
}

// elementName returns the value of the name key of a list element that is a
// mapping.
func elementName(e *yaml.Node) (string, bool) {
	for e.Kind == yaml.AliasNode && e.Alias != nil {
		e = e.Alias
	}
	if e.Kind != yaml.MappingNode {
		return "", false
	}
	for j := 0; j+1 < len(e.Content); j += 2 {
		k, v := e.Content[j], e.Content[j+1]
		if k.Kind == yaml.ScalarNode && k.Value == "name" && v.Kind == yaml.ScalarNode {
			return v.Value, true
		}
	}
	return "", false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// parseSetValue parses the value of a --set argument as a YAML value.
func parseSetValue(value string) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(value), &doc); err != nil {
		return nil, fmt.Errorf("value %q is not valid YAML: %s", value, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}, nil
	}
	return doc.Content[0], nil
}

// mark records every node of the subtree n as supplied by arg.
func mark(n *yaml.Node, arg string, origin map[*yaml.Node]string) {
	origin[n] = arg
	for _, c := range n.Content {
		mark(c, arg, origin)
	}
}
