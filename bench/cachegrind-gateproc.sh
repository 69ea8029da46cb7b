#!/usr/bin/env bash
# Instructions per forward-auth request of the whole gate process (robots serve:
# net/http, the runtime and its garbage collector, the server's handlers, the
# gate), beside a bare Go net/http server answering 200 to the same requests, with
# valgrind's cachegrind (Debian package valgrind), which a shared machine's load
# does not move. The requests are gatelat's mix, with the headers nginx's
# auth_request sends (docs/gate.md), on 4 kept-alive connections. Kernel time
# (the system calls) is not counted.
#
#   bench/cachegrind-gateproc.sh [CHECKOUT]     (a minute or two)
#
# With CHECKOUT (another worktree, e.g. the previous main: git worktree add
# /tmp/prev COMMIT), its cmd/robots is measured instead of this one's; the client
# and the bare server are always this checkout's.
#
# Each server runs under cachegrind for 2,000 and 6,000 requests and the
# difference of the counts is divided by 4,000: starting and stopping cancel out.
set -euo pipefail
src=$(realpath "${1:-$(dirname "$0")/..}")
cd "$(dirname "$0")/.."
out=$(mktemp -d -t robots-cgp.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$out"' EXIT
(cd "$src" && go build -o "$out/robots" ./cmd/robots)
(cd bench && go build -o "$out/gatelat" ./cmd/gatelat)
printf 'User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n' >"$out/robots.txt"
echo 127.0.0.1/32 >"$out/ranges"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
run() { # name n server...
	local name=$1 n=$2
	shift 2
	# cpu.rdtscp=off: valgrind cannot run the RDTSCP instruction the runtime uses.
	GODEBUG=cpu.rdtscp=off valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out/$name.$n" "$@" >"$out/$name.$n.log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		(: </dev/tcp/127.0.0.1/$port) 2>/dev/null && break
		sleep 0.2
	done
	"$out/gatelat" -send 127.0.0.1:$port -n 100 # warm: the robots.txt read, the range lists
	"$out/gatelat" -send 127.0.0.1:$port -n "$n"
	kill -INT $pid
	wait $pid || true
	pid=
}
for n in 2000 6000; do
	run gate $n "$out/robots" serve -addr 127.0.0.1:$port -data "$out/data" -gate-site "site.test=$out/robots.txt" \
		-gate-disallowed deny -gate-impostor deny -gate-offline -gate-no-dns \
		-gate-list "Googlebot=$out/ranges" -gate-list "GPTBot=$out/ranges"
	run bare $n "$out/gatelat" -bare-serve 127.0.0.1:$port
done
python3 - "$out" <<'PY'
import sys, os
def ir(path):
    for line in open(path):
        if line.startswith("summary:"):
            return int(line.split()[1])
d = sys.argv[1]
per = {h: (ir(os.path.join(d, h + ".6000")) - ir(os.path.join(d, h + ".2000"))) / 4000 for h in ("bare", "gate")}
print(f"robots serve (gate)   {per['gate']:8.0f} instructions per forward-auth request")
print(f"bare net/http server  {per['bare']:8.0f}")
PY
