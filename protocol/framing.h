// Newline framing for a byte stream: splits received bytes into lines, enforcing the line
// cap before buffering more. Pure logic (no sockets) so the server and clients share it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "protocol/limits.h"

namespace xq::proto {

class FrameReader {
public:
    explicit FrameReader(std::size_t max_line = MAX_LINE_BYTES) : max_line_(max_line) {}

    // Feeds received bytes. Calls on_line(std::string_view) for each complete line (without
    // "\n" or a trailing "\r"; empty lines are skipped) and on_oversized() once for each line
    // longer than the cap, whose bytes are then discarded up to its newline. The buffer never
    // grows past the cap.
    template <class OnLine, class OnOversized>
    void feed(std::string_view data, OnLine&& on_line, OnOversized&& on_oversized) {
        while (!data.empty()) {
            const std::size_t nl = data.find('\n');
            const std::string_view part = data.substr(0, nl);
            if (discarding_) {
                if (nl == std::string_view::npos) return;
                discarding_ = false;
                data.remove_prefix(nl + 1);
                continue;
            }
            if (buf_.size() + part.size() > max_line_ + 1) {
                // +1 tolerates a "\r" before the newline at exactly the cap.
                buf_.clear();
                discarding_ = nl == std::string_view::npos;
                on_oversized();
                if (nl == std::string_view::npos) return;
                data.remove_prefix(nl + 1);
                continue;
            }
            if (nl == std::string_view::npos) {
                buf_.append(part);
                return;
            }
            std::string_view line;
            if (buf_.empty()) {
                line = part;
            } else {
                buf_.append(part);
                line = buf_;
            }
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            data.remove_prefix(nl + 1);
            if (line.size() > max_line_) {
                on_oversized();
            } else if (!line.empty()) {
                on_line(line);
            }
            buf_.clear();
        }
    }

    // Bytes of an unfinished line held so far.
    std::size_t pending() const { return buf_.size(); }

private:
    std::size_t max_line_;
    std::string buf_;
    bool discarding_ = false;
};

}  // namespace xq::proto
