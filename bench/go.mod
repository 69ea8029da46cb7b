module github.com/gorobots/robots/bench

go 1.26.0

require (
	github.com/gorobots/robots v0.0.0
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/temoto/robotstxt v1.1.2
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
)

require github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect

replace github.com/gorobots/robots => ../

tool golang.org/x/perf/cmd/benchstat
