// xiangqi-loadgen --idle N: holds N idle connections and prints the memory each costs (RSS
// delta / N) and a ping round trip, for a bare-Asio NDJSON echo server started by the tool
// in the same run (the baseline) and for a running xiangqi-server. Loopback only.
#pragma once

#include <cstdint>
#include <string>

namespace xq::loadgen {

struct IdleOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 5050;   // the xiangqi-server
    int server_pid = 0;          // its process, for RSS (required)
    int connections = 1000;      // idle connections held on each server
    int per_table = 50;          // xiangqi-server: spectators per table (one seated creator each)
    int pings = 90;              // round trips timed on one more connection (the server's flood burst is 100 lines)
    double settle_s = 2;         // quiet time before RSS is read
};

// Runs the baseline, then the server; prints one line for each and their ratio. Returns the
// process exit code (2 when a measurement could not be made).
int run_idle(const IdleOptions& opt);

}  // namespace xq::loadgen
