package hdf5

import (
	"fmt"
	"sort"
	"strings"
)

// maxDepth bounds the nesting of groups the reader follows.
const maxDepth = 32

// link is a named child of a group.
type link struct {
	name string
	addr uint64 // object header address
}

// groupLinks reports whether the object is a group and, for a symbol-table
// group, returns its children sorted by name. Objects that are groups in the newer link-message
// format give an unsupported-feature error.
func (f *File) groupLinks(h *objectHeader) ([]link, bool, error) {
	m := h.find(msgSymbolTable)
	if m == nil {
		if h.find(msgLinkInfo) != nil || h.find(msgLink) != nil || h.find(msgGroupInfo) != nil {
			return nil, true, unsupported("new-style group (link messages, HDF5 1.8 format)")
		}
		return nil, false, nil
	}
	c := &cursor{b: m.data, offSize: f.sb.offSize, lenSize: f.sb.lenSize, what: "symbol table message"}
	btree, heapAddr := c.addr(), c.addr()
	if c.err != nil {
		return nil, true, c.err
	}
	links, err := f.readLinks(btree, heapAddr)
	return links, true, err
}

// readLinks reads the entries of a group B-tree and names them from the
// local heap.
func (f *File) readLinks(btree, heapAddr uint64) ([]link, error) {
	heap, err := f.readLocalHeap(heapAddr)
	if err != nil {
		return nil, err
	}
	entries, err := f.groupEntries(btree)
	if err != nil {
		return nil, err
	}
	links := make([]link, 0, len(entries))
	for _, e := range entries {
		name, err := heap.name(e.nameOff)
		if err != nil {
			return nil, err
		}
		if name == "" || strings.Contains(name, "/") {
			return nil, malformed("link name %q", name)
		}
		links = append(links, link{name: name, addr: e.headerAddr})
	}
	sort.Slice(links, func(i, j int) bool { return links[i].name < links[j].name })
	return links, nil
}

// lookup resolves an absolute path such as "/fclib_global/M/x" to its
// object header.
func (f *File) lookup(path string) (*objectHeader, error) {
	h, err := f.readObjectHeader(f.sb.rootAddr)
	if err != nil {
		return nil, fmt.Errorf("root group: %w", err)
	}
	cur := ""
	for _, name := range strings.Split(strings.Trim(path, "/"), "/") {
		if name == "" {
			continue
		}
		links, ok, err := f.groupLinks(h)
		if err != nil {
			return nil, fmt.Errorf("group %q: %w", cur+"/", err)
		}
		if !ok {
			return nil, fmt.Errorf("object %q is not a group: %w", cur, ErrNotFound)
		}
		i := sort.Search(len(links), func(i int) bool { return links[i].name >= name })
		cur += "/" + name
		if i == len(links) || links[i].name != name {
			return nil, fmt.Errorf("object %q: %w", cur, ErrNotFound)
		}
		if h, err = f.readObjectHeader(links[i].addr); err != nil {
			return nil, fmt.Errorf("object %q: %w", cur, err)
		}
	}
	return h, nil
}

// walk calls fn with the path and header of every non-group object
// reachable from the root, depth first in name order. Objects reachable by
// several paths (hard links) are visited once.
func (f *File) walk(fn func(path string, h *objectHeader) error) error {
	h, err := f.readObjectHeader(f.sb.rootAddr)
	if err != nil {
		return fmt.Errorf("root group: %w", err)
	}
	seen := map[uint64]bool{f.sb.rootAddr: true}
	return f.walkGroup("", h, 0, seen, fn)
}

func (f *File) walkGroup(path string, h *objectHeader, depth int, seen map[uint64]bool, fn func(string, *objectHeader) error) error {
	links, _, err := f.groupLinks(h)
	if err != nil {
		return fmt.Errorf("group %q: %w", path+"/", err)
	}
	if depth >= maxDepth && len(links) > 0 {
		return malformed("group %q nested deeper than %d", path, maxDepth)
	}
	for _, l := range links {
		p := path + "/" + l.name
		if seen[l.addr] {
			continue
		}
		seen[l.addr] = true
		child, err := f.readObjectHeader(l.addr)
		if err != nil {
			return fmt.Errorf("object %q: %w", p, err)
		}
		if isGroupHeader(child) {
			err = f.walkGroup(p, child, depth+1, seen, fn)
		} else {
			err = fn(p, child)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// isGroupHeader reports whether the header describes a group of either
// storage format.
func isGroupHeader(h *objectHeader) bool {
	for _, t := range []uint16{msgSymbolTable, msgLinkInfo, msgLink, msgGroupInfo} {
		if h.find(t) != nil {
			return true
		}
	}
	return false
}
