// Package viewer serves a web page that plays back a Stiction run in 3D
// (three.js, embedded with go:embed so that everything works offline), or
// follows a simulation live over server-sent events.
//
// The page reads one JSON document, GET /api/run (RunJSON), and, while a
// live run is going, the stream GET /api/events?frames=N&steps=M, whose
// events "frames" and "steps" carry what was added after the first N frames
// and M step rows, and whose event "done" ends the run. Both are fed from a
// Feed: FeedFromRun for a recorded run directory, NewFeed for a live one.
// The format is described in docs/VIEWER.md.
//
// A Session (live*.go) runs a simulation interactively: Run's goroutine
// owns the simulator and takes Commands (pause, resume, step, reset, rate,
// control, zero, qpos, perturb, release, record, open) from a channel, fed
// by Session.Do from Go or by the pages over the WebSocket of LiveHandler.
// The mouse perturbation is Perturb, a force element in the simulator's
// force list; the record command writes the session's history as a run
// directory (record package).
package viewer
