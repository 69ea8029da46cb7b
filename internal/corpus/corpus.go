// Package corpus loads the shared robots.txt corpus (real files, real crawled URLs and
// real crawler tokens) for the benchmarks of this module and of the bench module, so
// that both measure the same data in the same way.
package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// EnvDir names an environment variable that overrides where the corpus is looked for.
const EnvDir = "ROBOTS_CORPUS"

// ErrNotFound is returned by Find when no corpus directory exists.
var ErrNotFound = errors.New("corpus: shared/corpus not found")

// File is one robots.txt body of the corpus.
type File struct {
	Host string // the file name without ".txt": lower-case host, ":port" as "_port"
	Body []byte
}

// Case is one decision to make: may Agent fetch URL, according to Files[File]?
type Case struct {
	File  int
	URL   string
	Agent string
}

// Corpus is the loaded corpus.
type Corpus struct {
	Dir    string
	Files  []File   // sorted by host
	URLs   []string // urls.txt, in file order
	Agents []string // agents.txt, in file order
	Major  []string // the hand-picked major crawlers of agents.tsv, in file order
	byHost map[string]int
}

// DirFlag defines the -corpus flag of a command that reads the corpus on fs (what
// says what the command reads of it) and returns the directory to read once fs is
// parsed: the flag's, else what Find(".") finds.
func DirFlag(fs *flag.FlagSet, what string) func() (string, error) {
	dir := fs.String("corpus", "", "shared corpus `directory` ("+what+"); default $"+EnvDir+", else shared/corpus beside the repository")
	return func() (string, error) {
		if *dir != "" {
			return *dir, nil
		}
		d, err := Find(".")
		if err != nil {
			return "", fmt.Errorf("%w: give -corpus or set $%s", err, EnvDir)
		}
		return d, nil
	}
}

// Find returns the corpus directory: $ROBOTS_CORPUS when set, otherwise the first
// shared/corpus found beside dir or beside one of its parents (so that a checkout at
// /work/wt-x finds /work/shared/corpus, as does its bench/ sub-module).
func Find(dir string) (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		if _, err := os.Stat(filepath.Join(d, "robots")); err != nil {
			return "", fmt.Errorf("corpus: $%s=%s: %w", EnvDir, d, err)
		}
		return d, nil
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		d := filepath.Join(dir, "shared", "corpus")
		if _, err := os.Stat(filepath.Join(d, "robots")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNotFound
		}
		dir = parent
	}
}

// Load reads robots/*.txt, urls.txt, agents.txt and agents.tsv from dir.
func Load(dir string) (*Corpus, error) {
	c := &Corpus{Dir: dir, byHost: map[string]int{}}
	names, err := filepath.Glob(filepath.Join(dir, "robots", "*.txt"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("corpus: no robots/*.txt in %s", dir)
	}
	slices.Sort(names)
	for _, name := range names {
		body, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		host := strings.TrimSuffix(filepath.Base(name), ".txt")
		c.byHost[host] = len(c.Files)
		c.Files = append(c.Files, File{Host: host, Body: body})
	}
	if c.URLs, err = readLines(filepath.Join(dir, "urls.txt")); err != nil {
		return nil, err
	}
	if c.Agents, err = readLines(filepath.Join(dir, "agents.txt")); err != nil {
		return nil, err
	}
	rows, err := readLines(filepath.Join(dir, "agents.tsv"))
	if err != nil {
		return nil, err
	}
	for _, row := range rows[1:] { // the first row is the header
		cols := strings.Split(row, "\t")
		if len(cols) == 3 && slices.Contains(strings.Split(cols[2], ","), "major") {
			c.Major = append(c.Major, cols[0])
		}
	}
	if len(c.Agents) == 0 || len(c.Major) == 0 || len(c.URLs) == 0 {
		return nil, fmt.Errorf("corpus: %s: empty urls.txt, agents.txt or agents.tsv", dir)
	}
	return c, nil
}

func readLines(name string) ([]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			out = append(out, line)
		}
	}
	return out, sc.Err()
}

// Bytes returns the total size of the files, each counted up to limit bytes
// (the part a parser with that size limit reads); limit <= 0 means no limit.
func (c *Corpus) Bytes(limit int) int64 {
	var n int64
	for _, f := range c.Files {
		if limit > 0 {
			n += int64(min(len(f.Body), limit))
		} else {
			n += int64(len(f.Body))
		}
	}
	return n
}

// FileFor returns the index of the file of rawURL's host, and whether there is one.
func (c *Corpus) FileFor(rawURL string) (int, bool) {
	key, ok := HostKey(rawURL)
	if !ok {
		return 0, false
	}
	i, ok := c.byHost[key]
	return i, ok
}

// Cases pairs every URL whose host has a file with that file. The agents
// alternate: even cases take the major crawlers in turn (most real decisions are
// theirs), odd cases walk through all of agents.txt (most of which fall back to the
// "*" group). The cases come in a fixed shuffled order, so that a benchmark that
// gets through only the first few thousand still sees every kind of host and file
// rather than the first hosts of urls.txt.
func (c *Corpus) Cases() []Case {
	var out []Case
	for _, u := range c.URLs {
		fi, ok := c.FileFor(u)
		if !ok {
			continue
		}
		n := len(out)
		agent := c.Major[(n/2)%len(c.Major)]
		if n%2 == 1 {
			agent = c.Agents[(n/2)%len(c.Agents)]
		}
		out = append(out, Case{File: fi, URL: u, Agent: agent})
	}
	rand.New(rand.NewPCG(2, 9309)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// HostKey returns the corpus file name (without ".txt") for the host of an absolute
// http or https URL: the host in lower case, the default port dropped and any other
// port written as "_port".
func HostKey(rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return "", false
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	switch {
	case port == "",
		port == "80" && u.Scheme == "http",
		port == "443" && u.Scheme == "https":
		return host, true
	}
	return host + "_" + port, true
}
