module github.com/gorobots/robots/bench

go 1.26.0

require (
	github.com/gorobots/robots v0.0.0
	github.com/internetarchive/gowarc v0.8.96
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/klauspost/compress v1.20.4
	github.com/nlnwa/gowarc/v3 v3.1.0
	github.com/redis/go-redis/v9 v9.23.0
	github.com/temoto/robotstxt v1.1.2
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/andybalholm/brotli v1.1.1 // indirect
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/bits-and-blooms/bitset v1.24.0 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dolthub/maphash v0.1.0 // indirect
	github.com/dunglas/httpsfv v1.1.2 // indirect
	github.com/gammazero/deque v1.0.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/jlaffaye/ftp v0.2.4 // indirect
	github.com/klauspost/cpuid/v2 v2.4.0 // indirect
	github.com/maypok86/otter v1.2.4 // indirect
	github.com/miekg/dns v1.1.73 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/nlnwa/whatwg-url v0.6.2 // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	github.com/parquet-go/jsonlite v1.0.0 // indirect
	github.com/parquet-go/parquet-go v0.32.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.21 // indirect
	github.com/prometheus/client_golang v1.25.0 // indirect
	github.com/prometheus/client_model v0.6.3 // indirect
	github.com/prometheus/common v0.72.0 // indirect
	github.com/prometheus/procfs v0.22.0 // indirect
	github.com/refraction-networking/utls v1.8.1 // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	github.com/ulikunitz/xz v0.5.15 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	github.com/zeebo/blake3 v0.2.4 // indirect
	go.etcd.io/bbolt v1.5.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

replace github.com/gorobots/robots => ../

tool golang.org/x/perf/cmd/benchstat
