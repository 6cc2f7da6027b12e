package hdf5

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
)

// readAll opens a file image and reads every dataset reachable from the
// root, as h5dump would. Errors are fine; panics are not.
func readAll(name string, data []byte) error {
	f, err := Open(name, data)
	if err != nil {
		return err
	}
	return f.Walk(func(o *Object) error {
		d, err := o.Dataset()
		if err != nil {
			return err
		}
		_, err = datasetTokens(d)
		return err
	})
}

func readSample(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(samplePath(name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// FuzzOpen feeds arbitrary file images to the reader, seeded with the five
// sample files.
func FuzzOpen(f *testing.F) {
	for _, name := range sampleFiles {
		f.Add(readSample(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		readAll("fuzz.hdf5", data)
	})
}

// lastDataEnd returns the end of the last dataset's raw data in the file.
func lastDataEnd(t *testing.T, name string, data []byte) int {
	f, err := Open(name, data)
	if err != nil {
		t.Fatal(err)
	}
	end := int64(0)
	err = f.Walk(func(o *Object) error {
		d, err := o.Dataset()
		if err != nil {
			return err
		}
		if off, ok := d.DataOffset(); ok {
			end = max(end, off+int64(d.Len()*d.ElemSize()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return int(end)
}

// TestTruncated cuts every sample at many lengths. With the superblock's
// end-of-file address intact the reader must report truncation when it
// opens the file; with it patched to the new length the reader goes further
// and must still fail cleanly in the walk over all datasets, as long as the
// cut removes some dataset's data.
func TestTruncated(t *testing.T) {
	for _, name := range sampleFiles {
		data := readSample(t, name)
		end := lastDataEnd(t, name, data)
		for cut := 0; cut < len(data); cut += 1 + len(data)/97 {
			trunc := data[:cut]
			if _, err := Open(name, trunc); !errors.Is(err, ErrFormat) {
				t.Errorf("%s cut at %d: err = %v, want ErrFormat", name, cut, err)
			}
			if cut < 48 {
				continue
			}
			patched := append([]byte(nil), trunc...)
			binary.LittleEndian.PutUint64(patched[40:], uint64(cut)) // end-of-file address
			if err := readAll(name, patched); err == nil && cut < end {
				t.Errorf("%s cut at %d < %d (end of data) with EOF address patched: read without error", name, cut, end)
			}
		}
	}
}

// TestByteFlips corrupts the samples with random byte flips (fixed seed).
// Flips in numeric data can go unnoticed; the reader must never panic, and
// it must reject some corruptions of the metadata at the start of the file.
func TestByteFlips(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range sampleFiles {
		data := readSample(t, name)
		failed := 0
		const trials = 200
		for range trials {
			c := append([]byte(nil), data...)
			for range 1 + rng.IntN(8) {
				c[rng.IntN(4096)] ^= byte(1 + rng.IntN(255)) // metadata lives in the first pages
			}
			if readAll(name, c) != nil {
				failed++
			}
		}
		t.Logf("%s: %d of %d corrupted images rejected", name, failed, trials)
		if failed == 0 {
			t.Errorf("%s: no corruption detected", name)
		}
	}
}

// TestNotHDF5 checks that non-HDF5 inputs are rejected as malformed.
func TestNotHDF5(t *testing.T) {
	inputs := map[string][]byte{
		"empty":          nil,
		"text":           []byte("M v = H r + f\n"),
		"png":            []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"),
		"signature only": []byte("\x89HDF\r\n\x1a\n"),
		"zeros":          make([]byte, 4096),
	}
	for name, data := range inputs {
		_, err := Open(name, data)
		if !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
	}
}

// TestHugeSizes patches sizes read from the file to huge values: the reader
// must reject them without allocating more than a few times the file size.
func TestHugeSizes(t *testing.T) {
	const title = "/fclib_global/info/title"
	cases := map[string]func(t *testing.T, d []byte){
		"dataspace of 2^60 elements": func(t *testing.T, d []byte) {
			binary.LittleEndian.PutUint64(d[msgAt(t, d, "/fclib_global/M/x", msgDataspace)+8:], 1<<60)
		},
		"unwritten 512 MiB string": func(t *testing.T, d []byte) {
			binary.LittleEndian.PutUint32(d[msgAt(t, d, title, msgDatatype)+4:], 1<<29)
			binary.LittleEndian.PutUint64(d[msgAt(t, d, title, msgLayout)+2:], undefAddr)
		},
		"heap data segment of 2^62 bytes": func(t *testing.T, d []byte) {
			// The root group's local heap: signature, version, 3 reserved, then the size.
			c := &cursor{b: d[msgAt(t, d, "/", msgSymbolTable):], offSize: 8}
			c.addr()
			binary.LittleEndian.PutUint64(d[c.addr()+8:], 1<<62)
		},
	}
	for name, patch := range cases {
		d := readSample(t, boxFile)
		patch(t, d)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := readAll(boxFile, d)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16*uint64(len(d)) {
			t.Errorf("%s: allocated %d bytes for a %d-byte file", name, alloc, len(d))
		}
	}
}
