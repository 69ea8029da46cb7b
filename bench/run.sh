#!/usr/bin/env bash
# Compares robots with temoto/robotstxt and jimsmart/grobotstxt on the shared corpus
# and prints benchstat's summary and the ratios issue 2 targets.
#
#   cd bench && ./run.sh [COUNT [BENCHTIME]]      (defaults: 6 runs, 1s)
#
# The benchmarks run COUNT times in turn rather than each COUNT times in a row, so
# that load from other work on a shared machine falls on every library alike.
# The raw results are kept in $OUT (a temporary file unless set).
set -euo pipefail
cd "$(dirname "$0")"
count=${1:-6}
benchtime=${2:-1s}
out=${OUT:-$(mktemp -t robots-bench.XXXXXX)}
bin=$(mktemp -t robots-bench-test.XXXXXX)
trap 'rm -f "$bin"' EXIT

go test -c -o "$bin" .
: >"$out"
for i in $(seq "$count"); do
	echo "run $i of $count" >&2
	"$bin" -test.run '^$' -test.bench . -test.benchtime "$benchtime" >>"$out"
done

echo "raw results: $out"
echo
go tool benchstat -col /lib "$out"
echo
go run ./cmd/table "$out"
