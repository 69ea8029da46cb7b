package main

import (
	"archive/tar"
	"bytes"
	"crypto/rand"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gorobots/robots/internal/testenv"
)

// TestContainerImage builds the Containerfile with podman as its comment says,
// checks the image's configuration, extracts its filesystem (running containers is
// not possible on the CI machines) and runs the binary found in it: "robots
// version", then "robots serve" answering /healthz and /readyz.
func TestContainerImage(t *testing.T) {
	podman := testenv.RequireBinary(t, "podman")
	goBin := testenv.RequireBinary(t, "go")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}

	// The build context, as the Containerfile's comment makes it at the root.
	ctxDir := t.TempDir()
	build := exec.Command(goBin, "build", "-trimpath", "-buildvcs=auto", "-ldflags=-s -w", "-o", filepath.Join(ctxDir, "robots"), "./cmd/robots")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, f := range []string{".dockerignore", "deploy/data/README"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(ctxDir, f)), 0o755)
		if err := os.WriteFile(filepath.Join(ctxDir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Something the .dockerignore must keep out of the image.
	os.WriteFile(filepath.Join(ctxDir, "secret.txt"), []byte("not for the image"), 0o600)

	suffix := make([]byte, 6)
	rand.Read(suffix)
	tag := "localhost/robots-test-" + hex.EncodeToString(suffix)
	pod := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(podman, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("podman %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
		}
		return out
	}
	pod("build", "-q", "-f", filepath.Join(root, "Containerfile"), "-t", tag, ctxDir)
	t.Cleanup(func() { exec.Command(podman, "rmi", "-f", tag).Run() })

	var cfg []struct {
		Config struct {
			User         string
			Env          []string
			Entrypoint   []string
			Volumes      map[string]any
			ExposedPorts map[string]any
		}
	}
	if err := json.Unmarshal(pod("image", "inspect", tag), &cfg); err != nil || len(cfg) != 1 {
		t.Fatalf("podman image inspect: %v", err)
	}
	c := cfg[0].Config
	t.Run("config", func(t *testing.T) {
		if c.User != "65532:65532" {
			t.Errorf("User %q, want 65532:65532 (not root)", c.User)
		}
		if !slices.Equal(c.Entrypoint, []string{"/robots", "serve"}) {
			t.Errorf("Entrypoint %q, want [/robots serve]", c.Entrypoint)
		}
		if !slices.Contains(c.Env, "ROBOTS_ADDR=:8080") {
			t.Errorf("Env %q lacks ROBOTS_ADDR=:8080 (every interface inside the container)", c.Env)
		}
		if _, ok := c.Volumes["/data"]; !ok {
			t.Errorf("Volumes %v lack /data", c.Volumes)
		}
		if _, ok := c.ExposedPorts["8080/tcp"]; !ok {
			t.Errorf("ExposedPorts %v lack 8080/tcp", c.ExposedPorts)
		}
	})

	// The image's filesystem, through a container that is created, never started.
	cid := strings.TrimSpace(string(pod("create", tag)))
	t.Cleanup(func() { exec.Command(podman, "rm", "-f", cid).Run() })
	fsDir := t.TempDir()
	owners := map[string]int{}
	tr := tar.NewReader(bytes.NewReader(pod("export", cid)))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Clean(h.Name)
		owners[name] = h.Uid
		if strings.HasPrefix(name, "..") || filepath.IsAbs(name) {
			t.Fatalf("image path %q leaves the image", h.Name)
		}
		p := filepath.Join(fsDir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			os.MkdirAll(p, 0o755)
		case tar.TypeReg:
			os.MkdirAll(filepath.Dir(p), 0o755)
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, os.FileMode(h.Mode)&0o777)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(f, tr); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
	}
	t.Run("filesystem", func(t *testing.T) {
		if uid, ok := owners["data"]; !ok || uid != 65532 {
			t.Errorf("/data owned by %d (present %v), want 65532, the server's user", uid, ok)
		}
		if _, ok := owners["secret.txt"]; ok {
			t.Error("secret.txt from the build context is in the image: .dockerignore let it through")
		}
		f, err := elf.Open(filepath.Join(fsDir, "robots"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Error("/robots asks for a dynamic loader; want a static binary (CGO_ENABLED=0)")
			}
		}
	})

	bin := filepath.Join(fsDir, "robots")
	t.Run("version", func(t *testing.T) {
		out, err := exec.Command(bin, "version").Output()
		if err != nil {
			t.Fatalf("robots version: %v", err)
		}
		if !strings.HasPrefix(string(out), "robots ") {
			t.Errorf("robots version printed %q", out)
		}
		// Built from a clone, the binary knows its revision. (The go command does not
		// look into a git worktree, whose .git is a file.)
		if fi, err := os.Stat(filepath.Join(root, ".git")); err != nil || !fi.IsDir() {
			return
		}
		if rev, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output(); err == nil {
			if r := strings.TrimSpace(string(rev)); !strings.Contains(string(out), "revision "+r) {
				t.Errorf("robots version printed %q; want revision %s", out, r)
			}
		}
	})
	t.Run("serve", func(t *testing.T) {
		// The image's environment, but on loopback: tests reach no other address.
		env := []string{"ROBOTS_ADDR=127.0.0.1:0", "XDG_CACHE_HOME=" + filepath.Join(fsDir, "data")}
		exe, err := exec.LookPath("robots")
		if err != nil {
			t.Fatal(err)
		}
		// startServe runs "robots" from PATH: put the image's binary first.
		t.Setenv("PATH", fsDir+string(os.PathListSeparator)+os.Getenv("PATH"))
		if p, _ := exec.LookPath("robots"); p == exe {
			t.Fatal("the image's binary is not first on PATH")
		}
		p := startServe(t, env)
		for _, path := range []string{"/healthz", "/readyz"} {
			if code := getStatus(t, "http://"+p.addr+path); code != 200 {
				t.Errorf("GET %s: %d, want 200", path, code)
			}
		}
		lines := p.stop(t)
		if !strings.Contains(strings.Join(lines, "\n"), filepath.Join(fsDir, "data", "robots-serve", "cache.bolt")) {
			t.Errorf("serve output %q; want the store in the data volume", lines)
		}
	})
}
