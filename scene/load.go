package scene

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Load reads a scene by embedded name (see Names) or, failing that, from the
// file nameOrPath, applies the --set overrides and validates it. Embedded
// scenes are reported in errors as "<name>.yaml".
func Load(nameOrPath string, sets []string) (*Scene, error) {
	return LoadWith(nameOrPath, sets, Options{})
}

// LoadWith is Load with options; for a file, opts.Dir defaults to the
// file's directory.
func LoadWith(nameOrPath string, sets []string, opts Options) (*Scene, error) {
	if data, ok := Embedded(nameOrPath); ok {
		return ParseWith(nameOrPath+".yaml", data, sets, opts)
	}
	data, err := os.ReadFile(nameOrPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("unknown scene %q (not an embedded scene and no such file); embedded scenes: %s",
				nameOrPath, strings.Join(Names(), ", "))
		}
		return nil, err
	}
	if opts.Dir == "" {
		opts.Dir = filepath.Dir(nameOrPath)
	}
	return ParseWith(nameOrPath, data, sets, opts)
}

// Parse reads the YAML scene in data. It parses the text into a node tree,
// applies the --set overrides (see docs/SCENES.md) to the tree, checks the
// tree against the schema (unknown fields, wrong kinds, non-numbers), decodes
// it with unknown fields rejected, applies the defaults (ApplyDefaults) and
// validates the result (Validate). name is the file name used in every error
// message. All problems found at the failing stage are returned together,
// joined with errors.Join; each is a *FieldError.
func Parse(name string, data []byte, sets []string) (*Scene, error) {
	return ParseWith(name, data, sets, Options{})
}

// ParseWith is Parse with options: the directory for relative paths
// (Scene.Dir) and the loader of included models, which are merged after
// decoding and before defaults and validation (see Includer).
func ParseWith(name string, data []byte, sets []string, opts Options) (*Scene, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &FieldError{File: name, Msg: "empty scene file"}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, &FieldError{File: name, Msg: "empty scene file (no YAML document)"}
		}
		return nil, yamlError(name, err, false)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return nil, yamlError(name, err, false)
		}
		return nil, &FieldError{File: name, Line: extra.Line, Msg: "a scene file must hold exactly one YAML document"}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, &FieldError{File: name, Msg: "empty scene file (no YAML document)"}
	}
	root := doc.Content[0]
	if isNull(root) {
		return nil, &FieldError{File: name, Line: root.Line, Msg: "empty scene file (the document is null)"}
	}
	if root.Kind != yaml.MappingNode {
		return nil, &FieldError{File: name, Line: root.Line, Msg: fmt.Sprintf("%s: the top level must be a mapping of scene fields (name, dt, duration, materials, bodies, ...)", describe(root))}
	}

	origin, err := applySets(name, root, sets)
	if err != nil {
		return nil, err
	}

	c := checker{file: name, origin: origin, locs: locs{"": {line: root.Line}}}
	c.walk(root, sceneType, "", "")
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}

	// The schema walk above has already reported unknown fields with their
	// paths; the strict decode below is the authoritative decoder and a
	// second line of defence. Without --set the original text is decoded, so
	// any line numbers in its errors are the file's.
	text := data
	if len(sets) > 0 {
		if text, err = yaml.Marshal(&doc); err != nil {
			return nil, fmt.Errorf("%s: re-encoding after --set: %w", name, err)
		}
	}
	strict := yaml.NewDecoder(bytes.NewReader(text))
	strict.KnownFields(true)
	s := new(Scene)
	if err := strict.Decode(s); err != nil {
		return nil, yamlError(name, err, len(sets) > 0)
	}
	s.Dir = opts.Dir
	if len(s.Include) > 0 {
		if err := s.resolveIncludes(name, c.locs, opts.Include); err != nil {
			return nil, err
		}
	}

	var pre []error
	if v := mappingValue(root, "record_every"); v != nil && !isNull(v) && s.RecordEvery == 0 {
		pre = append(pre, c.fieldErr("record_every", "0 must be ≥ 1 (leave it out for the default 1)"))
	}
	s.ApplyDefaults()
	if err := s.validate(name, c.locs, pre); err != nil {
		return nil, err
	}
	return s, nil
}

var yamlLineRE = regexp.MustCompile(`^line (\d+): (.*)$`)

// yamlError turns an error of the yaml package into FieldErrors that carry the
// file name and, where the message gives one, the line. After --set the
// decoded text is a re-encoding of the modified tree, whose line numbers mean
// nothing to the user, so they are dropped.
func yamlError(file string, err error, afterSet bool) error {
	msgs := []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	errs := make([]error, 0, len(msgs))
	for _, m := range msgs {
		e := &FieldError{File: file, Msg: "invalid YAML: " + m}
		if sm := yamlLineRE.FindStringSubmatch(m); sm != nil {
			e.Line, _ = strconv.Atoi(sm[1])
			e.Msg = "invalid YAML: " + sm[2]
		}
		if afterSet {
			e.Line = 0
			e.Msg += " (after applying --set)"
		}
		e.Msg = strings.ReplaceAll(e.Msg, "\n", " ")
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// mappingValue returns the value of key in mapping m (aliases resolved), or
// nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			v := m.Content[i+1]
			for v.Kind == yaml.AliasNode && v.Alias != nil {
				v = v.Alias
			}
			return v
		}
	}
	return nil
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// describe names a node's kind and, for scalars, its text, for messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		return strconv.Quote(n.Value)
	}
	return "an empty node"
}
