module github.com/stiction-sim/stiction

go 1.26

require (
	go.yaml.in/yaml/v3 v3.0.4 // indirect
	golang.org/x/sys v0.38.0 // indirect
	golang.org/x/term v0.37.0 // indirect
	gonum.org/v1/gonum v0.16.0 // indirect
)
