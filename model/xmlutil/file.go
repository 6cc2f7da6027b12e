package xmlutil

import (
	"fmt"
	"os"
)

// MaxFileSize bounds the model and mesh files read (1 GiB).
const MaxFileSize = 1 << 30

// ReadFile reads a regular file of at most MaxFileSize bytes: devices,
// pipes and directories named by a model (an include of /dev/zero) are
// errors, not hangs.
func ReadFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() > MaxFileSize {
		return nil, fmt.Errorf("%s is %d bytes, more than the limit of %d", path, fi.Size(), MaxFileSize)
	}
	return os.ReadFile(path)
}
