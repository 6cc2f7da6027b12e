package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/stiction-sim/stiction/validate"
)

// cmdValidate runs the registered claims of the papers, prints the table
// and, with --out, writes DIR/VALIDATION.md and its plots. The exit status
// is 1 when any row fails, 2 on bad input.
func cmdValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "run only the quick claims (CI)")
	out := fs.String("out", "", "write DIR/VALIDATION.md and DIR/validation/*.png")
	only := fs.String("claim", "", "run only the claims whose ID starts with this prefix")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) != 0 {
		fmt.Fprintf(stderr, "stiction validate: unexpected arguments %q\n%s", rest, usage)
		return 2
	}
	var cs []validate.Claim
	for _, c := range validate.Select(*quick) {
		if len(c.ID) >= len(*only) && c.ID[:len(*only)] == *only {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		fmt.Fprintf(stderr, "stiction validate: no claim matches %q\n", *only)
		return 2
	}
	start := time.Now()
	rs := validate.Run(&validate.Context{OutDir: *out, Quick: *quick}, cs)
	if err := validate.WriteTable(stdout, rs); err != nil {
		fmt.Fprintf(stderr, "stiction validate: %v\n", err)
		return 1
	}
	if *out != "" {
		if err := validate.WriteReport(*out, rs, *quick, time.Since(start)); err != nil {
			fmt.Fprintf(stderr, "stiction validate: %v\n", err)
			return 1
		}
	}
	if _, fail := validate.Counts(rs); fail > 0 {
		return 1
	}
	return 0
}
