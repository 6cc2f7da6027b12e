package hdf5

import "fmt"

// symbolEntry is one entry of a symbol table node: a link name and the
// address of the object header it points to.
type symbolEntry struct {
	nameOff    uint64
	headerAddr uint64
}

// groupEntries lists the entries of a symbol-table group, walking its
// version 1 B-tree (node type 0) from btreeAddr down to the symbol table
// nodes. Each node is visited at most once, so corrupt trees that share or
// loop subtrees cannot blow up the walk.
func (f *File) groupEntries(btreeAddr uint64) ([]symbolEntry, error) {
	w := &treeWalk{f: f, seen: map[uint64]bool{}}
	if err := w.node(btreeAddr, -1); err != nil {
		return nil, err
	}
	return w.entries, nil
}

// treeWalk holds the state of one B-tree walk.
type treeWalk struct {
	f       *File
	seen    map[uint64]bool
	entries []symbolEntry
}

// node visits the B-tree node at addr; wantLevel is the level its parent
// implies, or −1 for the root.
func (w *treeWalk) node(addr uint64, wantLevel int) error {
	what := fmt.Sprintf("group B-tree node at 0x%x", addr)
	if w.seen[addr] {
		return malformed("%s: visited twice (cycle or shared subtree)", what)
	}
	w.seen[addr] = true
	c, err := w.f.cursorAt(addr, what)
	if err != nil {
		return err
	}
	sig := string(c.take(4))
	typ, level, used := c.u8(), int(c.u8()), int(c.u16())
	c.addr() // left sibling
	c.addr() // right sibling
	switch {
	case c.err != nil:
		return c.err
	case sig != "TREE":
		return malformed("%s: bad signature %q", what, sig)
	case typ != 0:
		return fmt.Errorf("%s: %w", what, unsupported("B-tree node type %d in a group (want 0)", typ))
	case wantLevel >= 0 && level != wantLevel:
		return malformed("%s: level %d, parent implies %d", what, level, wantLevel)
	}
	children := make([]uint64, 0, min(used, len(c.b)/8))
	for range used {
		c.length() // key: heap offset of the boundary name
		children = append(children, c.addr())
		if c.err != nil {
			return c.err
		}
	}
	return w.children(children, level)
}

// children visits the children of a node at level: symbol table nodes for
// leaves, B-tree nodes one level down otherwise.
func (w *treeWalk) children(children []uint64, level int) error {
	for _, ch := range children {
		var err error
		if level == 0 {
			err = w.symbolNode(ch)
		} else {
			err = w.node(ch, level-1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// symbolNode appends the entries of the symbol table node ("SNOD") at addr.
func (w *treeWalk) symbolNode(addr uint64) error {
	what := fmt.Sprintf("symbol table node at 0x%x", addr)
	if w.seen[addr] {
		return malformed("%s: visited twice", what)
	}
	w.seen[addr] = true
	c, err := w.f.cursorAt(addr, what)
	if err != nil {
		return err
	}
	sig := string(c.take(4))
	version := c.u8()
	c.skip(1)
	n := int(c.u16())
	switch {
	case c.err != nil:
		return c.err
	case sig != "SNOD":
		return malformed("%s: bad signature %q", what, sig)
	case version != 1:
		return fmt.Errorf("%s: %w", what, unsupported("symbol table node version %d", version))
	}
	for range n {
		e := symbolEntry{nameOff: c.uvar(c.offSize), headerAddr: c.addr()}
		c.skip(4 + 4 + 16) // cache type, reserved, scratch pad
		if c.err != nil {
			return c.err
		}
		w.entries = append(w.entries, e)
	}
	return nil
}
