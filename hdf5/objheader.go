package hdf5

import "fmt"

// Header message types used or recognised by the reader (HDF5 format
// specification, section IV.A.2).
const (
	msgNil          = 0x0000
	msgDataspace    = 0x0001
	msgLinkInfo     = 0x0002
	msgDatatype     = 0x0003
	msgFillOld      = 0x0004
	msgFill         = 0x0005
	msgLink         = 0x0006
	msgExternal     = 0x0007
	msgLayout       = 0x0008
	msgGroupInfo    = 0x000A
	msgFilters      = 0x000B
	msgAttribute    = 0x000C
	msgContinuation = 0x0010
	msgSymbolTable  = 0x0011
)

// msgFlagShared marks a header message stored elsewhere (shared message).
const msgFlagShared = 0x02

// message is one object header message.
type message struct {
	typ   uint16
	flags uint8
	data  []byte
	pos   uint64 // address of the message data, for diagnostics and tests
}

// objectHeader is a decoded version 1 object header.
type objectHeader struct {
	addr uint64
	msgs []message
}

// find returns the first message of type typ, or nil.
func (h *objectHeader) find(typ uint16) *message {
	for i := range h.msgs {
		if h.msgs[i].typ == typ {
			return &h.msgs[i]
		}
	}
	return nil
}

// readObjectHeader decodes the version 1 object header at addr, following
// continuation messages. Version 2 headers ("OHDR") are unsupported.
func (f *File) readObjectHeader(addr uint64) (*objectHeader, error) {
	what := fmt.Sprintf("object header at 0x%x", addr)
	c, err := f.cursorAt(addr, what)
	if err != nil {
		return nil, err
	}
	if len(c.b) >= 4 && string(c.b[:4]) == "OHDR" {
		return nil, fmt.Errorf("%s: %w", what, unsupported("version 2 object header"))
	}
	version := c.u8()
	c.skip(1)
	nmsgs := int(c.u16())
	c.skip(4) // reference count
	size := uint64(c.u32())
	c.skip(4) // alignment of the first message to 8 bytes
	if c.err != nil {
		return nil, c.err
	}
	if version != 1 {
		return nil, fmt.Errorf("%s: %w", what, unsupported("object header version %d (only version 1)", version))
	}
	h := &objectHeader{addr: addr}
	return h, f.readMessages(h, addr+16, size, nmsgs, what)
}

// readMessages decodes up to nmsgs messages from the block [start,
// start+size) and from the continuation blocks it links to.
func (f *File) readMessages(h *objectHeader, start, size uint64, nmsgs int, what string) error {
	type block struct{ addr, size uint64 }
	queue := []block{{start, size}}
	seen := map[uint64]bool{start: true}
	for len(queue) > 0 && len(h.msgs) < nmsgs {
		b := queue[0]
		queue = queue[1:]
		data, err := f.bytesAt(b.addr, b.size, what)
		if err != nil {
			return err
		}
		next, err := f.decodeBlock(h, data, b.addr, nmsgs, what)
		if err != nil {
			return err
		}
		for _, n := range next {
			if !seen[n[0]] {
				seen[n[0]] = true
				queue = append(queue, block{n[0], n[1]})
			}
		}
	}
	return nil
}

// decodeBlock appends the messages of one header block to h and returns the
// (address, length) of the continuation blocks it names.
func (f *File) decodeBlock(h *objectHeader, data []byte, addr uint64, nmsgs int, what string) ([][2]uint64, error) {
	c := &cursor{b: data, offSize: f.sb.offSize, lenSize: f.sb.lenSize, what: what}
	var next [][2]uint64
	for len(c.b)-c.pos >= 8 && len(h.msgs) < nmsgs {
		m := message{typ: c.u16()}
		n := int(c.u16())
		m.flags = c.u8()
		c.skip(3)
		m.pos = addr + uint64(c.pos)
		m.data = c.take(n)
		if c.err != nil {
			return nil, c.err
		}
		if m.typ == msgContinuation {
			cc := &cursor{b: m.data, offSize: f.sb.offSize, lenSize: f.sb.lenSize, what: what + " continuation message"}
			a, l := cc.addr(), cc.length()
			if cc.err != nil {
				return nil, cc.err
			}
			next = append(next, [2]uint64{a, l})
		}
		h.msgs = append(h.msgs, m)
	}
	return next, nil
}
