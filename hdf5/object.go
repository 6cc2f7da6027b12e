package hdf5

import (
	"fmt"
	"strings"
)

// Object is a group or a dataset of a File, as resolved from a path.
type Object struct {
	f    *File
	path string
	h    *objectHeader
}

// Path returns the object's absolute path.
func (o *Object) Path() string { return o.path }

// Address returns the file address of the object's header (relative to the
// superblock's base address).
func (o *Object) Address() uint64 { return o.h.addr }

// IsGroup reports whether the object is a group (of either storage format;
// only symbol-table groups can be listed).
func (o *Object) IsGroup() bool { return isGroupHeader(o.h) }

// Links returns the names of a group's children in name order.
func (o *Object) Links() ([]string, error) {
	links, ok, err := o.f.groupLinks(o.h)
	if err != nil {
		return nil, o.f.wrap(fmt.Errorf("group %q: %w", o.path, err))
	}
	if !ok {
		return nil, o.f.wrap(fmt.Errorf("object %q: %w", o.path, malformed("not a group")))
	}
	names := make([]string, len(links))
	for i, l := range links {
		names[i] = l.name
	}
	return names, nil
}

// Dataset opens the object as a dataset.
func (o *Object) Dataset() (*Dataset, error) {
	d, err := o.f.openDataset(o.path, o.h)
	return d, o.f.wrap(err)
}

// cleanPath returns path in the form Walk reports: "/a/b", "/" for the root.
func cleanPath(path string) string {
	var parts []string
	for _, p := range strings.Split(path, "/") {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return "/" + strings.Join(parts, "/")
}
