package scene

import (
	"bytes"
	"errors"

	"go.yaml.in/yaml/v3"
)

// Marshal writes s as a scene file that Parse reads back into an equal Scene.
// Fields are written in schema order, materials by name, with two-space
// indentation; lists of numbers ([x, y, z]) and small mappings whose values
// are all scalars or such lists (shapes, materials, axis_angle) are written
// in flow style. Unset optional fields are left out, so a Scene without
// defaults applied stays short.
func Marshal(s *Scene) ([]byte, error) {
	if s == nil {
		return nil, errors.New("scene: Marshal(nil)")
	}
	var n yaml.Node
	if err := n.Encode(s); err != nil {
		return nil, err
	}
	flowLeaves(&n, 0)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// flowLeaves sets flow style on sequences of scalars and on mappings (below
// the top level) whose values are scalars or flow sequences.
func flowLeaves(n *yaml.Node, depth int) {
	for _, c := range n.Content {
		flowLeaves(c, depth+1)
	}
	switch n.Kind {
	case yaml.SequenceNode:
		if len(n.Content) > 0 && allKind(n.Content, func(c *yaml.Node) bool { return c.Kind == yaml.ScalarNode }) {
			n.Style = yaml.FlowStyle
		}
	case yaml.MappingNode:
		if depth > 1 && len(n.Content) > 0 && allKind(n.Content, func(c *yaml.Node) bool {
			return c.Kind == yaml.ScalarNode || (c.Kind == yaml.SequenceNode && c.Style == yaml.FlowStyle)
		}) {
			n.Style = yaml.FlowStyle
		}
	}
}

func allKind(ns []*yaml.Node, ok func(*yaml.Node) bool) bool {
	for _, c := range ns {
		if !ok(c) {
			return false
		}
	}
	return true
}
