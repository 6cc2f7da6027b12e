package sweep_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/runner"
	"github.com/stiction-sim/stiction/sweep"
)

// FuzzDecodeJob: no message makes DecodeJob panic, and a job it accepts
// encodes to a message it accepts again, which encodes the same.
func FuzzDecodeJob(f *testing.F) {
	good := sweep.Job{Sweep: "drop-0123456789ab", Index: 3, Repeat: 1, Params: []string{"0.5"},
		Source: runner.Source{Scene: "/s/scene.yaml", Data: []byte("name: s\n"), Sets: []string{"dt=0.01"}},
		Bundle: []sweep.File{{Path: "/s/m.obj", SHA256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}}}
	seed, _ := json.Marshal(good)
	f.Add(seed)
	f.Add([]byte(`{"Sweep":"a","Index":0,"Source":{"Scene":"drop"}}`))
	f.Add([]byte(`{"Sweep":"../x","Index":-1}`))
	f.Add([]byte(`{"Sweep":"a","Source":{"Scene":"drop","Workers":100000}}`))
	f.Add([]byte(`{"Sweep":"a","Source":{"Scene":"x","Data":"eA=="},"Bundle":[{"Path":"/a/../b"}]}`))
	f.Add([]byte(`{} {}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := sweep.DecodeJob(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "sweep: not a job: ") {
				t.Fatalf("error %q", err)
			}
			return
		}
		again, err := json.Marshal(j)
		if err != nil {
			t.Fatal(err)
		}
		k, err := sweep.DecodeJob(again)
		if err != nil {
			t.Fatalf("re-encoded job refused: %v", err)
		}
		if again2, _ := json.Marshal(k); !bytes.Equal(again, again2) {
			t.Fatalf("round trip:\n%s\n%s", again, again2)
		}
	})
}

// TestDecodeJobRefuses names the field of each bad job.
func TestDecodeJobRefuses(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{`{"Sweep":"a","Index":0,"Source":{"Scene":"drop"}}`, ""},
		{`{"Sweep":"a/b","Source":{"Scene":"drop"}}`, "Sweep: want"},
		{`{"Sweep":"a","Index":-2,"Source":{"Scene":"drop"}}`, "Index: -2 is negative"},
		{`{"Sweep":"a","Source":{"Scene":"drop","Workers":5000}}`, "Source.Workers: 5000"},
		{`{"Sweep":"a","Source":{"Scene":"rel/s.yaml","Data":"eA=="}}`, "Source.Scene: a scene given by its text needs an absolute, clean path"},
		{`{"Sweep":"a","Source":{"Scene":"drop"},"Bundle":[{"Path":"/a/../b","SHA256":""}]}`, "Bundle[0].Path: want an absolute, clean path"},
		{`{"Sweep":"a","Source":{"Scene":"drop"},"Bundle":[{"Path":"/b","SHA256":"00"}]}`, "Bundle[0].SHA256: does not match"},
		{`{"Sweep":"a","Source":{"Scene":"drop"},"Evil":1}`, `unknown field "Evil"`},
		{`{"Sweep":"a","Source":{"Scene":"drop"}} {}`, "more than one JSON value"},
	} {
		_, err := sweep.DecodeJob([]byte(c.data))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.data, err, c.want)
		}
	}
}
