package model

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/stiction-sim/stiction/model/xmlutil"
)

// ErrNotFound is wrapped by ResolveURI's error when the file it names does
// not exist (the package, if any, was found): a URDF importer skips such a
// mesh with a warning, as ROS tools do. A file that Options.Access refuses
// is not "not found".
var ErrNotFound = errors.New("not found")

// ResolveURI turns a mesh or include URI of a model file into a path:
// package://PKG/rest is found through Options.PackagePaths (and the
// directories above the model file, which is how a file inside a package
// finds its own package), model://NAME/rest through Options.ModelPaths
// (and the model file's directory and its parent), file:///abs as is, and
// anything else relative to dir, the model file's directory. The file
// must exist.
func (o Options) ResolveURI(uri, dir string) (string, error) {
	uri = strings.TrimSpace(uri)
	switch {
	case uri == "":
		return "", errors.New("empty URI")
	case strings.HasPrefix(uri, "package://"):
		return o.findPackage(strings.TrimPrefix(uri, "package://"), dir)
	case strings.HasPrefix(uri, "model://"):
		return o.findModel(strings.TrimPrefix(uri, "model://"), dir)
	case strings.HasPrefix(uri, "file://"):
		return o.existing(strings.TrimPrefix(uri, "file://"))
	case strings.Contains(uri, "://"):
		return "", fmt.Errorf("URI scheme of %q is not supported (package://, model://, file:// or a relative path)", uri)
	}
	if !filepath.IsAbs(uri) {
		uri = filepath.Join(dir, uri)
	}
	return o.existing(uri)
}

// access returns the path to use for p (Options.Access), p itself without
// Access.
func (o Options) access(p string) (string, error) {
	if o.Access == nil {
		return p, nil
	}
	return o.Access(p)
}

// existing returns the path to use for p if that file exists.
func (o Options) existing(p string) (string, error) {
	p, err := o.access(p)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("file %s %w", p, ErrNotFound)
	}
	return p, nil
}

// findPackage resolves "PKG/rest".
func (o Options) findPackage(s, dir string) (string, error) {
	pkg, rest, _ := strings.Cut(s, "/")
	if pkg == "" {
		return "", fmt.Errorf("package://%s: no package name", s)
	}
	var tried []string
	for _, root := range append(append([]string(nil), o.PackagePaths...), ancestors(dir)...) {
		for _, cand := range []string{root, filepath.Join(root, pkg)} {
			if o.packageName(cand) == pkg {
				p := filepath.Join(cand, filepath.FromSlash(rest))
				if q, err := o.existing(p); err == nil {
					return q, nil
				}
				tried = append(tried, p)
			}
		}
	}
	if len(tried) > 0 {
		return "", fmt.Errorf("package://%s: package %q found, but not the file (tried %s): %w", s, pkg, strings.Join(tried, ", "), ErrNotFound)
	}
	return "", fmt.Errorf("package://%s: package %q not found in the search path %v or above %s (add it with --package-path)", s, pkg, o.PackagePaths, dir)
}

var packageNameRE = regexp.MustCompile(`<name>\s*([^<\s]+)\s*</name>`)

// packageName returns the name of the ROS package in dir (from its
// package.xml, or the directory's name if it has none), or "" if dir is not
// a directory.
func (o Options) packageName(dir string) string {
	d, err := o.access(dir)
	if err != nil {
		return ""
	}
	fi, err := os.Stat(d)
	if err != nil || !fi.IsDir() {
		return ""
	}
	pkg, err := o.access(filepath.Join(dir, "package.xml"))
	if err != nil {
		return filepath.Base(dir)
	}
	data, err := xmlutil.ReadFile(pkg)
	if err == nil {
		if m := packageNameRE.FindSubmatch(data); m != nil {
			return string(m[1])
		}
	}
	return filepath.Base(dir)
}

// ancestors returns dir and the directories above it.
func ancestors(dir string) []string {
	var out []string
	d, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	for {
		out = append(out, d)
		p := filepath.Dir(d)
		if p == d {
			return out
		}
		d = p
	}
}

// findModel resolves "NAME/rest" for SDFormat's model://.
func (o Options) findModel(s, dir string) (string, error) {
	name, rest, _ := strings.Cut(s, "/")
	roots := append(append([]string(nil), o.ModelPaths...), dir, filepath.Dir(dir))
	for _, root := range roots {
		p := filepath.Join(root, name, filepath.FromSlash(rest))
		if q, err := o.existing(p); err == nil {
			return q, nil
		}
	}
	return "", fmt.Errorf("model://%s: not found under %v (add a directory with --model-path)", s, roots)
}
