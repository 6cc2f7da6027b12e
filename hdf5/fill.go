package hdf5

// fillValue returns the fill value of a dataset (the value of elements
// never written), or nil for the default fill value of zero bytes. It
// decodes the fill value message (type 0x0005, versions 1–3) or the old one
// (type 0x0004).
func fillValue(h *objectHeader, elemSize int) ([]byte, error) {
	var v []byte
	if m := h.find(msgFill); m != nil {
		var err error
		if v, err = decodeFill(m.data); err != nil {
			return nil, err
		}
	} else if m := h.find(msgFillOld); m != nil {
		c := &cursor{b: m.data, what: "old fill value message"}
		v = c.take(int(c.u32()))
		if c.err != nil {
			return nil, c.err
		}
	}
	if len(v) == 0 {
		return nil, nil
	}
	if len(v) != elemSize {
		return nil, malformed("fill value of %d bytes for elements of %d bytes", len(v), elemSize)
	}
	return v, nil
}

// decodeFill decodes a fill value message and returns the user-defined
// value, or nil when it is undefined or the default.
func decodeFill(data []byte) ([]byte, error) {
	c := &cursor{b: data, what: "fill value message"}
	version := c.u8()
	defined := false
	switch version {
	case 1, 2:
		c.skip(2) // allocation time, fill write time
		defined = c.u8() != 0
	case 3:
		defined = c.u8()&0x20 != 0
	default:
		if c.err == nil {
			return nil, unsupported("fill value message version %d", version)
		}
	}
	if c.err != nil || !defined {
		return nil, c.err
	}
	if version == 1 && len(c.b)-c.pos < 4 {
		return nil, nil
	}
	v := c.take(int(c.u32()))
	return v, c.err
}
