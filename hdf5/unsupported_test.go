package hdf5

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

const boxFile = "Box_Stacks-i0122-82-5.hdf5"

// header returns the object header of path in the file image data.
func header(t *testing.T, data []byte, path string) *objectHeader {
	t.Helper()
	f, err := Open("test", data)
	if err != nil {
		t.Fatal(err)
	}
	h, err := f.lookup(path)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// msgAt returns the address of the data of the first message of type typ
// in the header of path.
func msgAt(t *testing.T, data []byte, path string, typ uint16) int {
	t.Helper()
	m := header(t, data, path).find(typ)
	if m == nil {
		t.Fatalf("%s has no message 0x%04x", path, typ)
	}
	return int(m.pos)
}

// TestUnsupportedFeatures patches the samples to use HDF5 features outside
// the subset and checks that each gives an ErrUnsupported error naming the
// feature, the file and the object.
func TestUnsupportedFeatures(t *testing.T) {
	const x = "/fclib_global/M/x"
	cases := []struct {
		name, feature, object string
		patch                 func(t *testing.T, d []byte)
	}{
		{"superblock v2", "superblock version 2", "", func(t *testing.T, d []byte) { d[8] = 2 }},
		{"object header v2", "version 2 object header", x, func(t *testing.T, d []byte) {
			copy(d[header(t, d, x).addr:], "OHDR")
		}},
		{"chunked", "chunked storage layout", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgLayout)+1] = 2 }},
		{"compact", "compact storage layout", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgLayout)+1] = 0 }},
		{"virtual", "virtual storage layout", x, func(t *testing.T, d []byte) {
			p := msgAt(t, d, x, msgLayout)
			d[p], d[p+1] = 4, 3
		}},
		{"layout v5", "data layout message version 5", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgLayout)] = 5 }},
		{"float32", "floating-point datatype (4 bytes", x, func(t *testing.T, d []byte) {
			binary.LittleEndian.PutUint32(d[msgAt(t, d, x, msgDatatype)+4:], 4)
		}},
		{"int64", "integer datatype (8 bytes", "/fclib_global/M/nz", func(t *testing.T, d []byte) {
			binary.LittleEndian.PutUint32(d[msgAt(t, d, "/fclib_global/M/nz", msgDatatype)+4:], 8)
		}},
		{"vlen", "variable-length datatype", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgDatatype)] = 0x19 }},
		{"compound", "compound datatype", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgDatatype)] = 0x16 }},
		{"rank 2", "dataspace of rank 2", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgDataspace)+1] = 2 }},
		{"shared datatype", "shared header message", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgDatatype)-4] |= msgFlagShared }},
		{"deflate", "filter pipeline (deflate)", x, func(t *testing.T, d []byte) {
			p := msgAt(t, d, x, msgNil)
			binary.LittleEndian.PutUint16(d[p-8:], msgFilters)
			copy(d[p:], []byte{2, 1, 1, 0, 0, 0, 0, 0}) // version 2, 1 filter: id 1, flags 0, 0 values
		}},
		{"external", "external data storage", x, func(t *testing.T, d []byte) {
			binary.LittleEndian.PutUint16(d[msgAt(t, d, x, msgNil)-8:], msgExternal)
		}},
		{"new-style group", "new-style group", "/", func(t *testing.T, d []byte) {
			binary.LittleEndian.PutUint16(d[msgAt(t, d, "/", msgSymbolTable)-8:], msgLinkInfo)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := readSample(t, boxFile)
			c.patch(t, d)
			err := readAll(boxFile, d)
			t.Log(err)
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("err = %v, want ErrUnsupported", err)
			}
			for _, want := range []string{c.feature, boxFile, c.object} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}
