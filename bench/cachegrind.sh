#!/usr/bin/env bash
# Counts what one op costs in instructions, branch mispredictions and simulated cache
# misses, with valgrind's cachegrind (Debian package valgrind). Unlike times, these
# counts do not move with the load of a shared machine, so small changes can be
# compared. An op is one decision for allowed and decideonce, one file for parse, and
# for parsedecide a file parsed and its first decision (every 20th case, as the
# ParseAndDecide benchmark).
#
#   cd bench && ./cachegrind.sh allowed      (or decideonce, parse, parsedecide; about a minute)
#
# It runs cmd/passes with 0 and 2 passes under cachegrind and divides the difference
# by the ops of two passes, so that loading the corpus and setting up cancel out.
# GOGC=off keeps the garbage collector's work out of the difference; the scheduler's
# background threads still move the totals by tens of instructions per op, so the last
# line counts the library's functions alone (not the runtime's nor this harness's loop),
# which repeats to the instruction.
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

def ours(path):
    """The instructions of the functions that are not the runtime's or this harness's:
    unlike the totals, they do not move with the runtime's background work."""
    n, fn, col = 0, "", None
    for line in open(path):
        if line.startswith("events:"):
            col = line.split()[1:].index("Ir") + 1
        elif line.startswith("fn="):
            fn = line[3:].strip()
        elif line[:1].isdigit() and not fn.startswith(("runtime.", "internal/runtime", "main.", "sync")):
            f = line.split()
            n += int(f[col]) if len(f) > col else 0
    return n

a, b, ops = totals(sys.argv[1]), totals(sys.argv[2]), int(sys.argv[3])
names = {"Ir": "instructions", "Bcm": "mispredicted branches", "D1mr": "L1 data read misses",
         "DLmr": "last-level read misses"}
for key, name in names.items():
    print(f"{name:24s} {(b[key] - a[key]) / ops:12.1f} per op")
print(f"{'instructions, library':24s} {(ours(sys.argv[2]) - ours(sys.argv[1])) / ops:12.1f} per op "
      "(without the runtime and this harness: compare these)")
PY
