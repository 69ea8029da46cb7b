// Command logsbench measures "robots logs" on a Combined Log Format file beside
// goaccess (Debian's package) on the same file, in one run: CPU time (user and
// system, so lines per CPU-second is lines per core), wall time and peak resident
// memory of each, as child processes, from their rusage.
//
//	go build -o /tmp/robots ./cmd/robots
//	cd bench && go run ./cmd/logsbench -robots-bin /tmp/robots -lines 2000000
//	cd bench && go run ./cmd/logsbench -robots-bin /tmp/robots -mix adversarial -lines 2000000 -goaccess=false
//
// -mix typical is a busy site's log: four browsers for every known crawler, a few
// thousand paths. -mix adversarial is the worst case for robots logs' memory: every
// crawler of the registry, each User-Agent distinct (a version number per line, so
// the classification cache keeps being emptied), URLs up to 1 KB each distinct, a
// robots.txt of 400 rules that each disallow some of them, and -verify with range
// lists that make every crawler verified, impostor or cannot-tell by address: the
// most rows, rules, examples and cache entries robots logs can hold.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gorobots/robots/crawlers"
)

func main() {
	bin := flag.String("robots-bin", "", "the robots command to measure (required)")
	lines := flag.Int("lines", 2_000_000, "lines of the generated log")
	mix := flag.String("mix", "typical", "typical or adversarial")
	goaccess := flag.Bool("goaccess", true, "run goaccess on the same file")
	dir := flag.String("dir", "", "where to write the log (default a temporary directory, removed after)")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "logsbench: -robots-bin is required (go build -o /tmp/robots ./cmd/robots)")
		os.Exit(2)
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "logsbench")
		check(err)
		defer os.RemoveAll(d)
		*dir = d
	}
	logFile := filepath.Join(*dir, "access.log")
	robotsFile := filepath.Join(*dir, "robots.txt")
	rangesFile := filepath.Join(*dir, "ranges.txt")
	args := []string{"logs", "-robots", robotsFile, "-format", "json"}
	var size int64
	switch *mix {
	case "typical":
		size = writeTypical(logFile, robotsFile, *lines)
	case "adversarial":
		size = writeAdversarial(logFile, robotsFile, rangesFile, *lines)
		args = append(args, "-verify", "-offline", "-no-dns")
		seen := map[string]bool{}
		for _, c := range crawlers.All() {
			for _, u := range c.Verify.Ranges {
				if !seen[u] {
					seen[u] = true
					args = append(args, "-ranges", u+"="+rangesFile)
				}
			}
		}
	default:
		fmt.Fprintln(os.Stderr, "logsbench: -mix is typical or adversarial")
		os.Exit(2)
	}
	args = append(args, logFile)
	fmt.Printf("log: %d lines, %.1f MB, mix %s; %s\n", *lines, float64(size)/1e6, *mix, time.Now().UTC().Format(time.RFC3339))
	ours := measure(*bin, args...)
	ours.print("robots logs", *lines)
	if *goaccess {
		// goaccess writes its report as JSON (its fastest output) and parses with its
		// COMBINED format; --no-progress keeps it from drawing.
		ga := measure("goaccess", logFile, "--log-format=COMBINED", "--no-progress", "-o", filepath.Join(*dir, "goaccess.json"))
		ga.print("goaccess", *lines)
		fmt.Printf("ratio (lines per CPU-second, robots logs / goaccess): %.1fx\n", ga.cpu.Seconds()/ours.cpu.Seconds())
	}
}

type usage struct {
	wall, cpu time.Duration
	maxRSS    int64 // bytes
}

func (u usage) print(name string, lines int) {
	fmt.Printf("%-12s %6.2f s CPU  %6.2f s wall  %8.0f lines per CPU-second  peak RSS %6.1f MiB\n",
		name, u.cpu.Seconds(), u.wall.Seconds(), float64(lines)/u.cpu.Seconds(), float64(u.maxRSS)/(1<<20))
}

// measure runs a program to its end and returns its rusage; exit status 1 (robots
// logs found violations) is not a failure.
func measure(name string, args ...string) usage {
	cmd := exec.Command(name, args...)
	cmd.Stdout = nil
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		fmt.Fprintf(os.Stderr, "logsbench: %s: %v\n%s", name, err, stderr.String())
		os.Exit(1)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return usage{wall: wall, cpu: cpu, maxRSS: ru.Maxrss << 10}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "logsbench:", err)
		os.Exit(1)
	}
}

const clfTime = "02/Jan/2006:15:04:05 -0700"

func writeLine(w *bufio.Writer, addr string, t time.Time, target string, status int, ua string) {
	fmt.Fprintf(w, "%s - - [%s] \"GET %s HTTP/1.1\" %d %d \"-\" \"%s\"\n", addr, t.Format(clfTime), target, status, 512+len(target), ua)
}

var browsers = []string{
	"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
}

var bots = []string{
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
	"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
	"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
}

func writeTypical(logFile, robotsFile string, n int) int64 {
	check(os.WriteFile(robotsFile, []byte("User-agent: *\nDisallow: /private/\nDisallow: /search\nCrawl-delay: 2\n\nUser-agent: GPTBot\nDisallow: /\n"), 0o644))
	f, err := os.Create(logFile)
	check(err)
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(1, 1))
	t := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	statuses := []int{200, 200, 200, 200, 200, 200, 304, 301, 404, 500}
	for i := range n {
		if i%20 == 0 {
			t = t.Add(time.Second)
		}
		ua := browsers[rng.IntN(len(browsers))]
		if rng.IntN(5) == 0 {
			ua = bots[rng.IntN(len(bots))]
		}
		var target string
		switch r := rng.IntN(20); {
		case r == 0:
			target = fmt.Sprintf("/private/report-%d", rng.IntN(100))
		case r == 1:
			target = fmt.Sprintf("/search?q=%d", rng.IntN(10000))
		default:
			target = fmt.Sprintf("/articles/%d/%s.html", rng.IntN(3000), []string{"index", "comments", "print"}[rng.IntN(3)])
		}
		writeLine(w, fmt.Sprintf("203.0.%d.%d", rng.IntN(4), rng.IntN(256)), t, target, statuses[rng.IntN(len(statuses))], ua)
	}
	check(w.Flush())
	st, err := f.Stat()
	check(err)
	check(f.Close())
	return st.Size()
}

func writeAdversarial(logFile, robotsFile, rangesFile string, n int) int64 {
	var rb strings.Builder
	rb.WriteString("User-agent: *\nCrawl-delay: 1\n")
	for i := range 400 {
		fmt.Fprintf(&rb, "Disallow: /r%d/\n", i)
	}
	check(os.WriteFile(robotsFile, []byte(rb.String()), 0o644))
	// Addresses 10.1.x.x are in every list (verified), 10.2.x.x in none (impostors
	// for crawlers verified by ranges alone, cannot-tell for those DNS would decide).
	check(os.WriteFile(rangesFile, []byte("10.1.0.0/16\n"), 0o644))
	all := crawlers.All()
	f, err := os.Create(logFile)
	check(err)
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(2, 2))
	t := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	long := strings.Repeat("x", 900)
	for i := range n {
		if i%10 == 0 {
			t = t.Add(time.Second)
		}
		c := all[rng.IntN(len(all))]
		ua := fmt.Sprintf("Mozilla/5.0 (compatible; %s/%d.%d; +https://example.com/bot)", c.Name, i, rng.IntN(1000))
		if c.UserAgent != "" {
			ua = fmt.Sprintf("Mozilla/5.0 (compatible; %s; build %d)", c.UserAgent, i)
		}
		target := fmt.Sprintf("/r%d/%d/%s", rng.IntN(400), i, long[:rng.IntN(len(long))])
		addr := fmt.Sprintf("10.%d.%d.%d", 1+rng.IntN(3), rng.IntN(256), rng.IntN(256))
		writeLine(w, addr, t, target, 100+rng.IntN(500), ua)
	}
	check(w.Flush())
	st, err := f.Stat()
	check(err)
	check(f.Close())
	return st.Size()
}
