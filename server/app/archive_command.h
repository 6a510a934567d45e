// The archive subcommands of xiangqi-server (`export`, `import`, `games`): they work on a
// data directory's database without starting a server.
#pragma once

#include <optional>

namespace xq::server {

// Runs `export`, `import` or `games` when argv[1] names one; nullopt otherwise.
std::optional<int> run_archive_command(int argc, char** argv);

}  // namespace xq::server
