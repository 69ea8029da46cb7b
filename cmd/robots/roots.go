package main

// A container image built FROM scratch has no CA certificates: without a fallback
// set, every https robots.txt fetch would fail verification. These roots are used
// only where the system has none.
import _ "golang.org/x/crypto/x509roots/fallback"
