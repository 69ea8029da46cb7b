#!/usr/bin/env bash
# Counts the instructions one decision of a crawler's batch costs through serve's
# POST /v1/check handler (serve's BenchmarkBatch/origins=5: 1,000 URLs of 5 origins
# held in the cache), with valgrind's cachegrind (Debian package valgrind): unlike
# times, the counts do not move with the load of a shared machine.
#
#   cd bench && ./cachegrind-batch.sh                 (this tree's serve; about a minute)
#   cd bench && ./cachegrind-batch.sh old.test new.test   (test binaries built with
#                                                     go test -c ./serve in each tree)
#
# Each binary runs the benchmark for 20 and for 220 batches under cachegrind, on one
# thread (-test.cpu 1) with GOGC=off; the difference over 200,000 decisions cancels
# out loading the corpus and setting up. The counts are of the whole process (the
# handler, the runtime, the benchmark's requests), as the benchmark's decisions per
# CPU-second are. BENCH, DECISIONS (per op) and the op counts LO and HI pick another
# benchmark: for single checks, BENCH='^BenchmarkCheck$' DECISIONS=1 LO=2000 HI=22000.
set -euo pipefail
cd "$(dirname "$0")/../serve"
out=$(mktemp -d -t robots-cgb.XXXXXX)
trap 'rm -rf "$out"' EXIT
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
	go test -c -o "$out/serve.test" .
	bins=("$out/serve.test")
fi
for bin in "${bins[@]}"; do
	for n in "${LO:-20}" "${HI:-220}"; do
		# cpu.rdtscp=off: valgrind cannot run the RDTSCP instruction the runtime uses.
		GODEBUG=cpu.rdtscp=off GOGC=off valgrind --tool=cachegrind --cache-sim=no \
			--cachegrind-out-file="$out/$n.out" "$bin" -test.run '^$' \
			-test.bench "${BENCH:-^BenchmarkBatch\$/^origins=5\$}" -test.benchtime "${n}x" -test.cpu 1 >/dev/null 2>&1
	done
	python3 - "$bin" "$out/${LO:-20}.out" "$out/${HI:-220}.out" "${DECISIONS:-1000}" "$(( ${HI:-220} - ${LO:-20} ))" <<'PY'
import sys

def ir(path):
    for line in open(path):
        if line.startswith("summary:"):
            return int(line.split()[1])

print(f"{sys.argv[1]}: {(ir(sys.argv[3]) - ir(sys.argv[2])) / (int(sys.argv[5]) * int(sys.argv[4])):,.0f} instructions per decision")
PY
done
