package main

/*
#define STICTION_NO_PROTOTYPES
#include "stiction.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"os"

	"github.com/stiction-sim/stiction/sim"
)

// snapshot is a checkpoint held in memory.
type snapshot struct {
	c *sim.Checkpoint
}

// saveCheckpoint writes d's checkpoint to path.
func saveCheckpoint(d *data, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = sim.WriteCheckpoint(f, d.c.Sim().Checkpoint())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return nil
}

// loadCheckpoint restores d from the checkpoint file path.
func loadCheckpoint(d *data, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	c, err := sim.ReadCheckpoint(f)
	if err == nil {
		err = d.c.Restore(c)
	}
	if err != nil {
		return fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return nil
}

//export stiction_data_snapshot
func stiction_data_snapshot(h C.int64_t, out *C.int64_t) (rc C.int) {
	defer guard(&rc)
	d, err := getData(h)
	if err != nil {
		return fail(err)
	}
	if out == nil {
		return fail(errors.New("stiction_data_snapshot: out is NULL"))
	}
	*out = C.int64_t(newHandle(&snapshot{c: d.c.Sim().Checkpoint()}))
	return C.STICTION_OK
}

//export stiction_data_restore
func stiction_data_restore(h, sh C.int64_t) (rc C.int) {
	defer guard(&rc)
	d, err := getData(h)
	if err != nil {
		return fail(err)
	}
	s, err := lookup[*snapshot](sh, "snapshot")
	if err == nil {
		err = d.c.Restore(s.c)
	}
	if err != nil {
		return fail(err)
	}
	return C.STICTION_OK
}

//export stiction_snapshot_free
func stiction_snapshot_free(h C.int64_t) (rc C.int) {
	defer guard(&rc)
	if _, err := lookup[*snapshot](h, "snapshot"); err != nil {
		return fail(err)
	}
	dropHandle(int64(h))
	return C.STICTION_OK
}
