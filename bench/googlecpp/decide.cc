// decide: one-shot decisions with Google's robots.txt parser (github.com/google/robotstxt),
// for bench/cmd/worstpeer. Each decision builds a new matcher and parses the whole body,
// as the library's one entry point does.
//
//   decide ROBOTS_FILE AGENT URL_FILE REPS
//
// It makes REPS decisions of the URL in URL_FILE (a file, since paths run to 16 KB) for
// AGENT against the body in ROBOTS_FILE and prints "allowed|disallowed NS", NS being the
// mean wall-clock nanoseconds of one decision (0 when REPS is 0, which cachegrind runs
// use to count the setting up alone).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "robots.h"

static std::string slurp(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "decide: cannot read " << path << "\n";
    std::exit(2);
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: decide ROBOTS_FILE AGENT URL_FILE REPS\n";
    return 2;
  }
  const std::string body = slurp(argv[1]);
  const std::string agent = argv[2];
  std::string url = slurp(argv[3]);
  while (!url.empty() && (url.back() == '\n' || url.back() == '\r')) url.pop_back();
  const long reps = std::atol(argv[4]);
  bool allowed = true;
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < reps; i++) {
    googlebot::RobotsMatcher matcher;
    allowed = matcher.OneAgentAllowedByRobots(body, agent, url);
  }
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  std::printf("%s %.0f\n", allowed ? "allowed" : "disallowed", reps > 0 ? double(ns) / reps : 0.0);
  return 0;
}
