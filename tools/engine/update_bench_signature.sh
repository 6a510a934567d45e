#!/usr/bin/env bash
# Rewrites the pinned bench signature in tests/engine/search_test.cpp from `xiangqi-engine bench`.
# Run after an intentional search or evaluation change, and commit both together.
set -euo pipefail
cd "$(dirname "$0")/../.."
nodes=$(./build/bin/xiangqi-engine bench | awk '/Nodes searched/ {print $4}')
sed -i "s/constexpr std::uint64_t BENCH_SIGNATURE = [0-9]*;/constexpr std::uint64_t BENCH_SIGNATURE = ${nodes};/" tests/engine/search_test.cpp
echo "bench signature: ${nodes}"
