#!/usr/bin/env bash
# Instructions per request of the gate's forward-auth endpoint beside a bare
# net/http handler answering 204 (issue 37's target: the gate at least half the
# bare handler's throughput), with valgrind's cachegrind (Debian package
# valgrind), which a shared machine's load does not move.
#
#   bench/cachegrind-gate.sh        (a few minutes)
#
# Each runs BenchmarkForwardAuthHTTP/<handler> (package gate: server and
# keep-alive clients in one process on loopback, a mix of browsers, verified
# crawlers, an impostor and robots.txt) for 1,000 and 3,000 requests and divides
# the difference of the instruction counts by 2,000: setting up cancels out.
# Client and server are both counted, for each handler alike.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -t robots-gate.XXXXXX)
out=$(mktemp -d -t robots-cg.XXXXXX)
trap 'rm -rf "$bin" "$out"' EXIT
go test -c -o "$bin" ./gate
for h in bare204 gate; do
	for n in 1000 3000; do
		# cpu.rdtscp=off: valgrind cannot run the RDTSCP instruction the runtime uses.
		GODEBUG=cpu.rdtscp=off GOGC=off valgrind --tool=cachegrind --cache-sim=no \
			--cachegrind-out-file="$out/$h.$n" "$bin" -test.run '^$' \
			-test.bench "BenchmarkForwardAuthHTTP/$h\$" -test.benchtime "${n}x" -test.cpu 1 >/dev/null 2>&1
	done
done
python3 - "$out" <<'PY'
import sys, os
def ir(path):
    for line in open(path):
        if line.startswith("summary:"):
            return int(line.split()[1])
d = sys.argv[1]
per = {h: (ir(os.path.join(d, h + ".3000")) - ir(os.path.join(d, h + ".1000"))) / 2000 for h in ("bare204", "gate")}
for h, v in per.items():
    print(f"{h:8} {v:10.0f} instructions per request")
print(f"gate / bare204: {per['gate'] / per['bare204']:.2f}x the instructions: {per['bare204'] / per['gate']:.2f} of the bare handler's throughput per CPU")
PY
