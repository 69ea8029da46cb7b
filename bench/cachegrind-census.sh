#!/usr/bin/env bash
# robots corpus's whole task, in instructions on one core (cachegrind; Debian's
# valgrind), beside decompressing the same WARC.gz alone, for this tree and for an
# earlier one side by side: what BENCHMARKS.md, "robots corpus", quotes.
#
#   git worktree add /tmp/prev <commit>
#   cd bench && ./cachegrind-census.sh FILE.warc.gz [/tmp/prev]
#
# The file of BENCHMARKS.md is written by
#   go test ./census -run TestWriteCrawl -crawl-dir /tmp/crawl   (robotstxt-00000.warc.gz)
# Each figure is one run of census.BenchmarkScan (read, decide, write Parquet to
# io.Discard; "no output": the rows made and dropped) or BenchmarkDecompress (klauspost/compress, what census uses), under
# GOMAXPROCS=1; "share" is the decompressor's instructions over the scan's: the
# issue's target is 80%.
set -euo pipefail
cd "$(dirname "$0")/.."
file=$(realpath "$1")
trees=(.)
[ $# -ge 2 ] && trees+=("$2")
bins=$(mktemp -d -t robots-census.XXXXXX)
trap 'rm -rf "$bins"' EXIT
count() {
	GODEBUG=cpu.rdtscp=off GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		awk '/I *refs/ {gsub(",", "", $NF); print $NF}'
}
gz=$(count gzip -dc "$file")
printf '%-28s %15s instructions\n' "gzip -dc" "$gz"
for i in "${!trees[@]}"; do
	(cd "${trees[$i]}" && go test -c -o "$bins/$i.test" ./census)
	bench() { count "$bins/$i.test" -test.run '^$' -test.benchtime 1x -warc "$file" -test.bench "$@"; }
	dec=$(bench 'Decompress$')
	printf '%s (%s)\n' "${trees[$i]}" "$(git -C "${trees[$i]}" rev-parse --short HEAD)"
	printf '  %-26s %15s instructions\n' "decompress (klauspost)" "$dec"
	for cfg in "GPTBot, no lint|-agents GPTBot -nolint" "GPTBot, lint|-agents GPTBot" \
		"75 major, no lint|-nolint" "default: 75 major, lint|" \
		"GPTBot, no lint, no output|-agents GPTBot -nolint -format none" "75 major, no lint, no output|-nolint -format none"; do
		name=${cfg%%|*}
		# The rows made and dropped (no writer): trees from before -format skip it.
		case $cfg in *-format*) [[ $("$bins/$i.test" -h 2>&1 || true) == *-format* ]] || continue ;; esac
		# shellcheck disable=SC2086
		n=$(bench 'Scan$' ${cfg#*|})
		printf '  %-26s %15s instructions, share %.1f%% (%.1f%% of gzip -dc)\n' "$name" "$n" \
			"$(python3 -c "print(100*$dec/$n)")" "$(python3 -c "print(100*$gz/$n)")"
	done
done
