package fclib

import (
	"os"
	"path/filepath"
	"testing"
)

// sampleFiles are the five FCLIB problems in testdata.
var sampleFiles = []string{
	"Box_Stacks-i0122-82-5.hdf5",
	"CubeH8.hdf5",
	"LMGC_GlobalFrictionContactProblem00046.hdf5",
	"LMGC_GFC3D-i00001-1-00000.hdf5",
	"fclib_local_problem_test.hdf5",
}

const (
	boxFile   = "Box_Stacks-i0122-82-5.hdf5"
	localFile = "fclib_local_problem_test.hdf5"
)

func samplePath(name string) string { return filepath.Join("testdata", name) }

func readSample(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(samplePath(name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
