// Command table reads `go test -bench` output of the bench module (several runs of
// each benchmark) and prints, as Markdown, the median of each measurement and the
// ratios that issues 2 and 18 set as targets.
//
// On a shared machine the load changes from minute to minute, so a ratio is taken
// between results of the same round (the k-th result of each benchmark; run.sh runs
// all benchmarks once per round), where the two libraries ran seconds apart, and
// the median, lowest and highest of those per-round ratios are shown.
//
// Usage:
//
//	table [results.txt ...]   (standard input when no file is named)
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	"golang.org/x/perf/benchfmt"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "table:", err)
		os.Exit(1)
	}
}

// target is a ratio of our median to another library's on the same measurement.
type target struct {
	what        string
	ours, other string // benchmark names without the GOMAXPROCS suffix
	unit        string // the wall-clock rate the target is set on
	cpuUnit     string // the same rate per CPU second, steadier on a loaded machine (benchfmt reads MB as B)
	min         float64
}

var targets = []target{
	{"parse, MB/s", "Parse/lib=robots", "Parse/lib=grobotstxt", "B/s", "B/cpu-s", 7}, // issue 18 (issue 2 asked 10)
	{"pre-parsed decisions/s", "Decide/lib=robots", "Decide/lib=temoto", "decisions/s", "decisions/cpu-s", 30},
	{"parse and decide once (CheckOnce), decisions/s", "ParseAndDecide/lib=robots-once", "ParseAndDecide/lib=grobotstxt", "decisions/s", "decisions/cpu-s", 20}, // issue 18
	{"parse and decide once (Parse, then Allowed), decisions/s", "ParseAndDecide/lib=robots", "ParseAndDecide/lib=grobotstxt", "decisions/s", "decisions/cpu-s", 10},
}

// columns are the measurements shown, in order, with how to print them.
var columns = []struct {
	unit, title string
	format      func(float64) string
}{
	{"sec/op", "time/op", formatDuration},
	{"B/s", "MB/s", func(v float64) string { return fmt.Sprintf("%.1f", v/1e6) }},
	{"B/cpu-s", "MB/cpu-s", func(v float64) string { return fmt.Sprintf("%.1f", v/1e6) }},
	{"decisions/s", "decisions/s", func(v float64) string { return fmt.Sprintf("%.0f", v) }},
	{"decisions/cpu-s", "decisions/cpu-s", func(v float64) string { return fmt.Sprintf("%.0f", v) }},
	{"B/op", "B/op", func(v float64) string { return fmt.Sprintf("%.0f", v) }},
	{"allocs/op", "allocs/op", func(v float64) string { return fmt.Sprintf("%.0f", v) }},
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	values := map[string]map[string][]float64{} // name → unit → one value per run
	var rounds []map[string]map[string]float64  // round → name → unit → value
	var names []string
	read := func(r io.Reader, file string) error {
		br := benchfmt.NewReader(r, file)
		for br.Scan() {
			res, ok := br.Result().(*benchfmt.Result)
			if !ok {
				continue // config lines, unit metadata and syntax errors in non-benchmark lines
			}
			name := shortName(res.Name)
			if values[name] == nil {
				values[name] = map[string][]float64{}
				names = append(names, name)
			}
			round := len(values[name]["sec/op"]) // results of this name seen so far
			if round == len(rounds) {
				rounds = append(rounds, map[string]map[string]float64{})
			}
			rounds[round][name] = map[string]float64{}
			// benchfmt has already turned ns/op into sec/op and MB/s into B/s.
			for _, v := range res.Values {
				values[name][v.Unit] = append(values[name][v.Unit], v.Value)
				rounds[round][name][v.Unit] = v.Value
			}
		}
		return br.Err()
	}
	if len(args) == 0 {
		if err := read(stdin, "stdin"); err != nil {
			return err
		}
	}
	for _, a := range args {
		f, err := os.Open(a)
		if err != nil {
			return err
		}
		err = read(f, a)
		f.Close()
		if err != nil {
			return err
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("no benchmark results in the input")
	}

	fmt.Fprint(stdout, "| benchmark | runs |")
	for _, c := range columns {
		fmt.Fprintf(stdout, " %s |", c.title)
	}
	fmt.Fprint(stdout, "\n|---|---:|")
	for range columns {
		fmt.Fprint(stdout, "---:|")
	}
	fmt.Fprintln(stdout)
	for _, n := range names {
		fmt.Fprintf(stdout, "| %s | %d |", n, len(values[n]["sec/op"]))
		for _, c := range columns {
			if vs := values[n][c.unit]; len(vs) > 0 {
				fmt.Fprintf(stdout, " %s |", c.format(median(vs)))
			} else {
				fmt.Fprint(stdout, " |")
			}
		}
		fmt.Fprintln(stdout)
	}

	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "| target | ours (median) | theirs (median) | ratio: median of rounds (lowest–highest) | per CPU second: median (lowest–highest) | wanted | met |")
	fmt.Fprintln(stdout, "|---|---:|---:|---:|---:|---:|---|")
	for _, t := range targets {
		wall, cpu := roundRatios(rounds, t, t.unit), roundRatios(rounds, t, t.cpuUnit)
		if len(wall) == 0 {
			fmt.Fprintf(stdout, "| %s | | | | | ≥ %g× | not measured |\n", t.what, t.min)
			continue
		}
		met := "yes"
		if median(wall) < t.min {
			met = "**no**"
		}
		scale, format := 1.0, "%.0f"
		if t.unit == "B/s" {
			scale, format = 1e-6, "%.1f"
		}
		fmt.Fprintf(stdout, "| %s | "+format+" | "+format+" | %s | %s | ≥ %g× | %s |\n",
			t.what, median(values[t.ours][t.unit])*scale, median(values[t.other][t.unit])*scale,
			summary(wall), summary(cpu), t.min, met)
	}
	return nil
}

// roundRatios returns, sorted, the ratio of ours to theirs in each round that has both.
func roundRatios(rounds []map[string]map[string]float64, t target, unit string) []float64 {
	var out []float64
	for _, r := range rounds {
		if o, th := r[t.ours][unit], r[t.other][unit]; o > 0 && th > 0 {
			out = append(out, o/th)
		}
	}
	slices.Sort(out)
	return out
}

func summary(ratios []float64) string {
	if len(ratios) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f× (%.2f–%.2f)", median(ratios), ratios[0], ratios[len(ratios)-1])
}

// shortName drops the "Benchmark" prefix and the GOMAXPROCS suffix.
func shortName(n benchfmt.Name) string {
	base, parts := n.Parts()
	var b bytes.Buffer
	b.Write(bytes.TrimPrefix(base, []byte("Benchmark")))
	for _, p := range parts {
		if len(p) > 0 && p[0] == '-' {
			continue
		}
		b.Write(p)
	}
	return b.String()
}

func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func formatDuration(sec float64) string {
	for _, u := range []struct {
		name  string
		scale float64
	}{{"s", 1}, {"ms", 1e-3}, {"µs", 1e-6}} {
		if sec >= u.scale {
			return strconv.FormatFloat(sec/u.scale, 'g', 3, 64) + " " + u.name
		}
	}
	return strconv.FormatFloat(sec*1e9, 'g', 3, 64) + " ns"
}
