package fclib

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/hdf5"
)

// The HDF5 layer has its own fuzz, truncation and corruption tests (package
// hdf5); these check the FCLIB layer above it: Read and the SAP mapping.

// exercise reads a file image as an FCLIB problem and maps it for SAP.
// Errors are fine; panics are not.
func exercise(name string, data []byte) error {
	p, err := Read(name, data)
	if err == nil {
		_, err = NewMapping(p, 1e-6)
	}
	return err
}

// FuzzRead feeds arbitrary file images to Read and the SAP mapping, seeded
// with the five sample files.
func FuzzRead(f *testing.F) {
	for _, name := range sampleFiles {
		f.Add(readSample(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		exercise("fuzz.hdf5", data)
	})
}

// TestTruncated cuts every sample at many lengths: Read must report a
// malformed file each time.
func TestTruncated(t *testing.T) {
	for _, name := range sampleFiles {
		data := readSample(t, name)
		for cut := 0; cut < len(data); cut += 1 + len(data)/97 {
			if _, err := Read(name, data[:cut]); !errors.Is(err, ErrFormat) {
				t.Errorf("%s cut at %d: err = %v, want ErrFormat", name, cut, err)
			}
		}
	}
}

// TestByteFlips corrupts the samples with random byte flips (fixed seed).
// Flips in numeric data can go unnoticed; Read and the SAP mapping must
// never panic, and Read must reject some corruptions of the metadata at the
// start of the file.
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
			if _, err := Read(name, c); err != nil {
				failed++
			}
			exercise(name, c)
		}
		t.Logf("%s: %d of %d corrupted images rejected", name, failed, trials)
		if failed == 0 {
			t.Errorf("%s: no corruption detected", name)
		}
	}
}

// TestNotHDF5 checks that Read rejects a file that is not HDF5 as
// malformed, naming it (package hdf5 tests more such inputs).
func TestNotHDF5(t *testing.T) {
	_, err := Read("notes.txt", []byte("M v = H r + f\n"))
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("err = %v, want ErrFormat naming the file", err)
	}
}

// TestHugeNz patches the triplet count nz of M to 2^31 − 1: Read must
// reject it without allocating more than a few times the file size.
func TestHugeNz(t *testing.T) {
	d := readSample(t, boxFile)
	f, err := hdf5.Open(boxFile, d)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := f.Dataset("/fclib_global/M/nz")
	if err != nil {
		t.Fatal(err)
	}
	off, ok := ds.DataOffset()
	if !ok {
		t.Fatal("nz has no data")
	}
	binary.LittleEndian.PutUint32(d[off:], 1<<31-1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Read(boxFile, d)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrFormat) {
		t.Errorf("err = %v, want ErrFormat", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16*uint64(len(d)) {
		t.Errorf("allocated %d bytes for a %d-byte file", alloc, len(d))
	}
}
