// xiangqi-discover: lists the Xiangqi servers that answer a LAN discovery query.
// The target is --discovery-address, else $XQ_DISCOVERY_ADDR, else 255.255.255.255:5050;
// on development and CI machines use a loopback address such as 127.255.255.255.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "client/net/lan_discovery.h"

int main(int argc, char** argv) {
    std::string address;
    int wait_ms = 1000;
    CLI::App app{"xiangqi-discover: find LAN Xiangqi servers"};
    app.add_option("--discovery-address", address,
                   "where the query goes, ADDR[:PORT] (default: $XQ_DISCOVERY_ADDR, else 255.255.255.255:5050)");
    app.add_option("--wait-ms", wait_ms, "how long to collect answers")->capture_default_str()->check(CLI::Range(1, 10000));
    CLI11_PARSE(app, argc, argv);

    std::string err;
    std::optional<std::string_view> flag;
    if (!address.empty()) flag = address;
    auto target = xq::proto::choose_discovery_target(flag, std::getenv(std::string(xq::proto::DISCOVERY_ENV_VAR).c_str()), &err);
    if (!target) {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 2;
    }
    auto result = xq::client::probe_lan(*target, std::chrono::milliseconds(wait_ms));
    if (!result.error.empty()) {
        std::fprintf(stderr, "%s\n", result.error.c_str());
        return 1;
    }
    std::printf("asked %s:%u, %zu server(s) answered\n", target->address.c_str(), unsigned(target->port),
                result.servers.size());
    for (const auto& s : result.servers)
        std::printf("%s:%u\t%s\tversion %s\t%lld table(s)\t%lld player(s)\t%s\t%lld ms\n", s.address.c_str(),
                    unsigned(s.info.port), s.info.name.c_str(), s.info.server_version.c_str(),
                    static_cast<long long>(s.info.tables), static_cast<long long>(s.info.players),
                    s.info.password ? "password" : "open", static_cast<long long>(s.round_trip.count()));
    return 0;
}
