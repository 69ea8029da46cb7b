#!/usr/bin/env bash
# Counts what one op costs in instructions, branch mispredictions and simulated cache
# misses, with valgrind's cachegrind (Debian package valgrind). Unlike times, these
# counts do not move with the load of a shared machine, so small changes can be
# compared. An op is one decision for allowed and decideonce, one file for parse.
#
#   cd bench && ./cachegrind.sh allowed      (or decideonce, parse; about a minute)
#
# It runs cmd/passes with 0 and 2 passes under cachegrind and divides the difference
# by the ops of two passes, so that loading the corpus and setting up cancel out.
# GOGC=off keeps the garbage collector's work out of the difference (the scheduler's
# background threads still add a little noise: compare runs, not single digits).
set -euo pipefail
cd "$(dirname "$0")"
op=${1:-allowed}
bin=$(mktemp -t robots-passes.XXXXXX)
out=$(mktemp -d -t robots-cg.XXXXXX)
trap 'rm -rf "$bin" "$out"' EXIT
go build -o "$bin" ./cmd/passes
ops=0
for p in 0 2; do
	# cpu.rdtscp=off: valgrind cannot run the RDTSCP instruction the runtime uses.
	ops=$(GODEBUG=cpu.rdtscp=off GOGC=off valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes \
		--cachegrind-out-file="$out/$p.out" "$bin" -op "$op" -passes "$p" 2>/dev/null)
done
python3 - "$out/0.out" "$out/2.out" "$((2 * ops))" <<'PY'
import sys

def totals(path):
    events = None
    for line in open(path):
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:"):
            return dict(zip(events, map(int, line.split()[1:])))

a, b, ops = totals(sys.argv[1]), totals(sys.argv[2]), int(sys.argv[3])
names = {"Ir": "instructions", "Bcm": "mispredicted branches", "D1mr": "L1 data read misses",
         "DLmr": "last-level read misses"}
for key, name in names.items():
    print(f"{name:24s} {(b[key] - a[key]) / ops:12.1f} per op")
PY
