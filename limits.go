package robots

// Limits. Each is a named constant so that callers and documentation can refer to it.
const (
	// DefaultMaxBytes is how much of a robots.txt body is parsed by default. RFC 9309
	// §2.5 requires crawlers to parse at least the first 500 KiB; Google stops there too.
	// Content past the limit is ignored and reported as a diagnostic.
	DefaultMaxBytes = 500 << 10

	// MaxLineBytes is the longest line kept, as in Google's reference parser
	// (2083 × 8 bytes, the buffer minus its terminator). Longer lines are cut to this
	// length and reported; the rest of the line is ignored.
	MaxLineBytes = 2083*8 - 1
)
