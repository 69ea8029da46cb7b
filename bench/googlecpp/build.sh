#!/usr/bin/env bash
# Builds decide, the one-shot decision driver over Google's C++ robots.txt parser that
# bench/cmd/worstpeer runs as the peer to beat on the adversarial files (issue 33).
# Google's sources are not kept here: they are read from a clone of
# https://github.com/google/robotstxt (Apache-2.0) at the commit below, given as
# ROBOTSTXT (a work tree or a bare git directory). It needs g++ and Abseil
# (Debian: apt-get install g++ libabsl-dev); no Bazel.
#
#   ROBOTSTXT=/path/to/robotstxt bench/googlecpp/build.sh [OUT]    (default OUT: $TMPDIR/googlecpp-decide)
set -euo pipefail
rev=22b355ff855419e6a3ff8ff09c0ad7fdb17116f9
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${TMPDIR:-/tmp}/googlecpp-decide}
: "${ROBOTSTXT:?set ROBOTSTXT to a clone of https://github.com/google/robotstxt}"
src=$(mktemp -d -t googlecpp.XXXXXX)
trap 'rm -rf "$src"' EXIT
for f in robots.h robots.cc; do
	git --git-dir="$(git -C "$ROBOTSTXT" rev-parse --absolute-git-dir 2>/dev/null || echo "$ROBOTSTXT")" \
		show "$rev:$f" >"$src/$f"
done
g++ -O2 -DNDEBUG -std=c++17 -I"$src" -o "$out" "$here/decide.cc" "$src/robots.cc" \
	-labsl_strings -labsl_strings_internal -labsl_int128 -labsl_throw_delegate -labsl_raw_logging_internal
echo "$out"
