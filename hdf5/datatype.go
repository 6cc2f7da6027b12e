package hdf5

import "fmt"

// Class is the kind of values a dataset holds.
type Class int

const (
	// Int32 is a 32-bit signed little-endian integer.
	Int32 Class = iota
	// Float64 is an IEEE 754 binary64 number, little-endian.
	Float64
	// String is a fixed-length byte string.
	String
)

// String returns "int32", "float64" or "string".
func (c Class) String() string {
	if c < 0 || c > String {
		return fmt.Sprintf("Class(%d)", int(c))
	}
	return [...]string{"int32", "float64", "string"}[c]
}

// datatype is a decoded datatype message restricted to the supported
// classes.
type datatype struct {
	class Class
	size  int // bytes per element
	pad   int // string padding: 0 NUL-terminated, 1 NUL-padded, 2 space-padded
}

// hdf5ClassNames names the datatype classes of the HDF5 specification.
var hdf5ClassNames = [...]string{"fixed-point", "floating-point", "time", "string", "bitfield",
	"opaque", "compound", "reference", "enumerated", "variable-length", "array"}

// parseDatatype decodes a datatype message. Only int32 LE, float64 LE and
// fixed-length strings are supported; anything else is an unsupported
// feature named by class and size.
func parseDatatype(data []byte) (datatype, error) {
	c := &cursor{b: data, what: "datatype message"}
	cv := c.u8()
	bf := c.take(3)
	size := c.u32()
	if c.err != nil {
		return datatype{}, c.err
	}
	class := int(cv & 0x0f)
	switch class {
	case 0:
		return parseInteger(c, bf, size)
	case 1:
		return parseFloat(c, bf, size)
	case 3:
		return parseString(bf, size)
	}
	if class < len(hdf5ClassNames) {
		return datatype{}, unsupported("%s datatype", hdf5ClassNames[class])
	}
	return datatype{}, malformed("datatype class %d", class)
}

func parseInteger(c *cursor, bf []byte, size uint32) (datatype, error) {
	offset, precision := c.u16(), c.u16()
	if c.err != nil {
		return datatype{}, c.err
	}
	bigEndian, signed := bf[0]&1 != 0, bf[0]&8 != 0
	if size != 4 || bigEndian || !signed || offset != 0 || precision != 32 {
		return datatype{}, unsupported("integer datatype (%d bytes, big-endian %v, signed %v, precision %d; only int32 little-endian)",
			size, bigEndian, signed, precision)
	}
	return datatype{class: Int32, size: 4}, nil
}

func parseFloat(c *cursor, bf []byte, size uint32) (datatype, error) {
	offset, precision := c.u16(), c.u16()
	expLoc, expSize, mantLoc, mantSize := c.u8(), c.u8(), c.u8(), c.u8()
	bias := c.u32()
	if c.err != nil {
		return datatype{}, c.err
	}
	order := bf[0]&1 | (bf[0]>>6&1)<<1 // 0: little-endian
	ieee := order == 0 && bf[0]>>4&3 == 2 && bf[1] == 63 && offset == 0 && precision == 64 &&
		expLoc == 52 && expSize == 11 && mantLoc == 0 && mantSize == 52 && bias == 1023
	if size != 8 || !ieee {
		return datatype{}, unsupported("floating-point datatype (%d bytes, byte order %d, precision %d; only IEEE float64 little-endian)",
			size, order, precision)
	}
	return datatype{class: Float64, size: 8}, nil
}

func parseString(bf []byte, size uint32) (datatype, error) {
	pad, cset := int(bf[0]&0x0f), bf[0]>>4
	if pad > 2 || cset > 1 {
		return datatype{}, unsupported("string datatype with padding %d, character set %d", pad, cset)
	}
	if size == 0 {
		return datatype{}, malformed("string datatype of size 0")
	}
	if size > 1<<30 {
		return datatype{}, malformed("string datatype of size %d", size)
	}
	return datatype{class: String, size: int(size), pad: pad}, nil
}

// String describes the datatype like h5dump's DATATYPE line.
func (t datatype) String() string {
	switch t.class {
	case Int32:
		return "H5T_STD_I32LE"
	case Float64:
		return "H5T_IEEE_F64LE"
	}
	return fmt.Sprintf("H5T_STRING(%d)", t.size)
}
