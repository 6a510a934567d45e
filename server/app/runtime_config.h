// The process-level settings of xiangqi-server beyond ServerConfig: where the database lives
// and how it syncs, the default table clock, the discovery responder, per-address caps and
// the console (flags of xiangqi-server, shown by --help with these defaults).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace xq::server {

// The core's own settings (port, caps, hello timeout, seat grace) stay in ServerConfig.
struct RuntimeConfig {
    std::string data_dir;                  // empty: xiangqi-data beside the executable
    bool no_persist = false;               // run without a database (tests, demos)
    bool sync_full = false;                // fsync every move (power-cut safe); default survives kill -9
    std::string clock = "none";            // default clock of new tables (clock_spec text)
    std::uint16_t discovery_port = 5050;   // UDP port answered (0: discovery off)
    std::string discovery_bind = "0.0.0.0";
    // TCP port named in discovery answers (0: the port the server listens on). For a host
    // that publishes another port than the server's, e.g. Docker's -p 6000:5050.
    std::uint16_t advertise_port = 0;
    std::size_t max_per_ip = 32;           // connections from one address
    bool cap_loopback = false;             // count loopback too (the host's own tools are exempt)
    bool console = true;                   // read operator commands from stdin
    // The built-in AI's opening book: PGN collections and book files (empty: the starter
    // collection built into the program); no_book: the AI searches from the first move.
    std::vector<std::string> book_files;
    bool no_book = false;
};

}  // namespace xq::server
