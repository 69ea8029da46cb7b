// Command worstpeer measures Google's C++ robots.txt parser, the peer issue 33 names,
// on the adversarial files of the root package's BenchmarkAdversarial
// (internal/adversary), beside this module's one-shot decision (robots.CheckOnce,
// parse included, as Google's library always works) and its decision on a file parsed
// beforehand (Robots.Check, its rule set compiled), in one run. Only the shapes in
// Google's reading with allow and disallow lines are compared: Google's parser knows
// neither the other dialects nor Content-Usage.
//
//	ROBOTSTXT=/path/to/google/robotstxt bench/googlecpp/build.sh /tmp/googlecpp-decide
//	cd bench && go run ./cmd/worstpeer -google /tmp/googlecpp-decide [-cachegrind]
//
// Times are wall clock per decision (the machine is shared: read the ratios). With
// -cachegrind each decision's instructions are counted too, under valgrind (Debian
// package valgrind), as the difference between runs of n and 0 decisions: setting up
// and reading the files cancel out. Decisions whose native time passes -cgmax are not
// counted (valgrind runs them about fifty times slower).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/adversary"
)

const agent = "Googlebot"

func main() {
	google := flag.String("google", "", "the `path` of bench/googlecpp's decide driver (required, but for -op)")
	cachegrind := flag.Bool("cachegrind", false, "count instructions per decision with valgrind too")
	cgmax := flag.Duration("cgmax", 300*time.Millisecond, "count instructions only of decisions quicker than this natively")
	minTime := flag.Duration("time", 500*time.Millisecond, "time each measurement for at least this long")
	// Used by -cachegrind, which runs this command under valgrind.
	op := flag.String("op", "", "internal: make -reps decisions of one kind (once or parsed) and exit")
	file := flag.String("file", "", "internal: the robots.txt file of -op")
	urlFile := flag.String("url", "", "internal: the file holding the URL of -op")
	reps := flag.Int("reps", 0, "internal: the decisions of -op")
	flag.Parse()
	if *op != "" {
		if err := decideGo(*op, *file, *urlFile, *reps); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *google == "" {
		log.Fatal("-google: the decide driver is required (see bench/googlecpp/build.sh)")
	}
	if err := run(*google, *cachegrind, *cgmax, *minTime); err != nil {
		log.Fatal(err)
	}
}

// decideGo makes reps decisions of the kind op; the rule set of a parsed file is
// compiled before them.
func decideGo(op, file, urlFile string, reps int) error {
	body, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	u, err := os.ReadFile(urlFile)
	if err != nil {
		return err
	}
	url := string(u)
	switch op {
	case "once":
		for range reps {
			robots.CheckOnce(body, agent, url)
		}
	case "parsed":
		r := robots.Parse(body)
		r.Check(agent, url)
		for range reps {
			r.Check(agent, url)
		}
	default:
		return fmt.Errorf("-op %q: want once or parsed", op)
	}
	return nil
}

type row struct {
	name, path                       string
	googleNs, onceNs, parsedNs       float64
	googleIr, onceIr, parsedIr       float64 // 0: not counted
	googleAllowed, ourAllowed, agree bool
}

func run(google string, cg bool, cgmax, minTime time.Duration) error {
	dir, err := os.MkdirTemp("", "worstpeer")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Printf("worstpeer: Google's C++ parser (one-shot, parse included) against robots.CheckOnce and a pre-parsed Robots.Check, agent %s, %s\n", agent, time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Printf("%-12s %-6s %14s %14s %14s %9s", "shape", "path", "google ns", "CheckOnce ns", "parsed ns", "g/once")
	if cg {
		fmt.Printf(" %14s %14s %12s %9s", "google instr", "once instr", "parsed instr", "g/once")
	}
	fmt.Println()
	for _, f := range adversary.Files() {
		if f.Dialect != robots.Google || f.Usage || f.Once {
			continue // Once: the same file as "wild", measured once here for both
		}
		file := filepath.Join(dir, f.Name+".txt")
		if err := os.WriteFile(file, []byte(f.Body), 0o644); err != nil {
			return err
		}
		r := robots.ParseString(f.Body)
		for _, pn := range adversary.PathNames {
			path, ok := f.Paths[pn]
			if !ok {
				continue
			}
			url := "https://example.com" + path
			urlFile := filepath.Join(dir, f.Name+"-"+pn+".url")
			if err := os.WriteFile(urlFile, []byte(url), 0o644); err != nil {
				return err
			}
			rw := row{name: f.Name, path: pn}
			body := []byte(f.Body)
			rw.ourAllowed = robots.CheckOnce(body, agent, url).Allowed
			rw.onceNs = timeGo(minTime, func() { robots.CheckOnce(body, agent, url) })
			r.Check(agent, url)
			rw.parsedNs = timeGo(minTime, func() { r.Check(agent, url) })
			if rw.googleAllowed, rw.googleNs, err = timeGoogle(google, file, urlFile, minTime); err != nil {
				return err
			}
			rw.agree = rw.googleAllowed == rw.ourAllowed
			fmt.Printf("%-12s %-6s %14.0f %14.0f %14.1f %8.1fx", rw.name, rw.path, rw.googleNs, rw.onceNs, rw.parsedNs, rw.googleNs/rw.onceNs)
			if cg {
				if time.Duration(rw.googleNs) < cgmax {
					rw.googleIr, err = instructions(google, []string{file, agent, urlFile}, "", max(1, int(float64(cgmax)/4/rw.googleNs)))
					if err != nil {
						return err
					}
				}
				if time.Duration(rw.onceNs) < cgmax {
					rw.onceIr, err = instructions(self, []string{"-op", "once", "-file", file, "-url", urlFile, "-reps"}, "go", max(1, int(float64(cgmax)/4/rw.onceNs)))
					if err != nil {
						return err
					}
				}
				rw.parsedIr, err = instructions(self, []string{"-op", "parsed", "-file", file, "-url", urlFile, "-reps"}, "go", max(1, min(2000, int(float64(cgmax)/4/rw.parsedNs))))
				if err != nil {
					return err
				}
				fmt.Printf(" %14s %14s %12s %8s", count(rw.googleIr), count(rw.onceIr), count(rw.parsedIr), ratio(rw.googleIr, rw.onceIr))
			}
			if !rw.agree {
				fmt.Printf("  DISAGREE: google %v, ours %v", rw.googleAllowed, rw.ourAllowed)
			}
			fmt.Println()
		}
	}
	return nil
}

// timeGo returns the mean nanoseconds of f over at least minTime.
func timeGo(minTime time.Duration, f func()) float64 {
	for n := 1; ; n *= 2 {
		start := time.Now()
		for range n {
			f()
		}
		if el := time.Since(start); el >= minTime || n >= 1<<24 {
			return float64(el.Nanoseconds()) / float64(n)
		}
	}
}

// timeGoogle runs the driver with more decisions until they take minTime, and returns
// its decision and nanoseconds per decision.
func timeGoogle(google, file, urlFile string, minTime time.Duration) (bool, float64, error) {
	for n := 1; ; n *= 4 {
		start := time.Now()
		out, err := exec.Command(google, file, agent, urlFile, strconv.Itoa(n)).Output()
		if err != nil {
			return false, 0, fmt.Errorf("%s: %w", google, err)
		}
		verdict, ns, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
		v, err := strconv.ParseFloat(ns, 64)
		if err != nil {
			return false, 0, fmt.Errorf("%s answered %q", google, out)
		}
		if time.Since(start) >= minTime || n >= 1<<20 {
			return verdict == "allowed", v, nil
		}
	}
}

// instructions counts the instructions of one decision: the program run with args and
// n decisions (the last argument), less the program run with 0, over n. goEnv marks a
// Go program, whose collector and timer instruction are set aside.
func instructions(prog string, args []string, goEnv string, n int) (float64, error) {
	var ir [2]float64
	for i, reps := range []int{0, n} {
		out, err := os.CreateTemp("", "worstpeer-cg")
		if err != nil {
			return 0, err
		}
		out.Close()
		defer os.Remove(out.Name())
		cmd := exec.Command("valgrind", append([]string{"--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=" + out.Name(), prog},
			append(args, strconv.Itoa(reps))...)...)
		if goEnv != "" {
			// cpu.rdtscp=off: valgrind cannot run the RDTSCP instruction the runtime uses.
			cmd.Env = append(os.Environ(), "GOGC=off", "GODEBUG=cpu.rdtscp=off")
		}
		if b, err := cmd.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("valgrind %s: %w: %.500s", prog, err, b)
		}
		if ir[i], err = summaryIr(out.Name()); err != nil {
			return 0, err
		}
	}
	return (ir[1] - ir[0]) / float64(n), nil
}

// summaryIr reads the instruction total of a cachegrind output file.
func summaryIr(path string) (float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "summary:"); ok {
			fs := strings.Fields(v)
			if len(fs) > 0 {
				return strconv.ParseFloat(fs[0], 64)
			}
		}
	}
	return 0, errors.New(path + ": no summary line")
}

func count(ir float64) string {
	if ir == 0 {
		return "-"
	}
	return strconv.FormatFloat(ir, 'f', 0, 64)
}

func ratio(a, b float64) string {
	if a == 0 || b == 0 {
		return "-"
	}
	return strconv.FormatFloat(a/b, 'f', 1, 64) + "x"
}
