package hdf5

// parseDataspace decodes a dataspace message and returns the number of
// elements and the rank. Only scalar (rank 0) and 1-D simple dataspaces are
// supported. The count is bounded by maxElems (what fits in the file).
func parseDataspace(data []byte, lenSize int, maxElems uint64) (n uint64, rank int, err error) {
	c := &cursor{b: data, lenSize: lenSize, what: "dataspace message"}
	version := c.u8()
	rank = int(c.u8())
	c.u8() // flags
	switch version {
	case 1:
		c.skip(5)
	case 2:
		if typ := c.u8(); typ == 2 {
			return 0, 0, unsupported("null dataspace")
		}
	default:
		if c.err == nil {
			return 0, 0, unsupported("dataspace message version %d", version)
		}
	}
	if c.err != nil {
		return 0, 0, c.err
	}
	if rank > 1 {
		return 0, 0, unsupported("dataspace of rank %d (only scalar and 1-D)", rank)
	}
	n = 1
	if rank == 1 {
		n = c.length()
	}
	if c.err != nil {
		return 0, 0, c.err
	}
	if n > maxElems {
		return 0, 0, malformed("dataspace of %d elements, more than fit in the file", n)
	}
	return n, rank, nil
}
