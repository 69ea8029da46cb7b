#!/usr/bin/env bash
# robots corpus's speed target, in instructions (cachegrind; Debian's valgrind): what
# one WARC.gz costs to decompress alone (gzip -dc, and the Go decompressor census
# uses), to read with each WARC library the module proxy serves, and to read whole
# with census.Scan (one crawler, no lint), on one core. Instruction counts do not move
# with the load of a shared machine. BENCHMARKS.md, "robots corpus", has the figures.
#
#   cd bench && ./cachegrind-corpus.sh FILE.warc.gz
#
# The file of BENCHMARKS.md is written by
#   go test ./census -run TestWriteCrawl -crawl-dir /tmp/crawl   (robotstxt-00000.warc.gz)
set -euo pipefail
cd "$(dirname "$0")"
file=$1
bin=$(mktemp -t robots-warcpeers.XXXXXX)
trap 'rm -f "$bin"' EXIT
go build -o "$bin" ./cmd/warcpeers
count() {
	GODEBUG=cpu.rdtscp=off GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		awk '/I *refs/ {gsub(",", "", $NF); print $NF}'
}
gz=$(count gzip -dc "$file")
go=$(count "$bin" -mode gunzip "$file")
printf '%-8s %15s instructions\n' "gzip -dc" "$gz"
for m in gunzip ia nlnwa census; do
	n=$go
	[ "$m" = gunzip ] || n=$(count "$bin" -mode "$m" "$file")
	printf '%-8s %15s instructions, %.2fx gunzip, %.2fx gzip -dc\n' "$m" "$n" \
		"$(python3 -c "print($n/$go)")" "$(python3 -c "print($n/$gz)")"
done
