// Sample messages for the codec's tests: at least one of every client and server message
// type, with the optional fields both left out and filled, and a sample table and tournament
// to build larger messages from.
#pragma once

#include <string>
#include <vector>

#include "protocol/codec.h"

namespace xq::proto::samples {

SeatInfo seat(std::string name, int ai = 0, bool connected = true);
TableInfo sample_table();
Tournament sample_tournament();
std::vector<ClientMessage> all_client_samples();
std::vector<ServerMessage> all_server_samples();

}  // namespace xq::proto::samples
