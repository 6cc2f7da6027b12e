package hdf5

// layout is the storage of a contiguous dataset.
type layout struct {
	addr uint64 // address of the raw data, undefAddr if never written
	size uint64 // bytes recorded in the message; 0 when the message version does not record it
}

// layoutClassNames names the storage layout classes.
var layoutClassNames = [...]string{"compact", "contiguous", "chunked", "virtual"}

// parseLayout decodes a data layout message (versions 1–4). Only the
// contiguous class is supported.
func parseLayout(data []byte, offSize, lenSize int) (layout, error) {
	c := &cursor{b: data, offSize: offSize, lenSize: lenSize, what: "data layout message"}
	version := c.u8()
	var class uint8
	switch version {
	case 1, 2:
		c.u8() // dimensionality
		class = c.u8()
		c.skip(5)
	case 3, 4:
		class = c.u8()
	default:
		if c.err == nil {
			return layout{}, unsupported("data layout message version %d", version)
		}
	}
	if c.err != nil {
		return layout{}, c.err
	}
	if class != 1 {
		if int(class) < len(layoutClassNames) {
			return layout{}, unsupported("%s storage layout (only contiguous)", layoutClassNames[class])
		}
		return layout{}, malformed("storage layout class %d", class)
	}
	l := layout{addr: c.addr()}
	if version >= 3 {
		l.size = c.length()
	}
	return l, c.err
}
