// The terminal client's brain, free of I/O: turns typed commands into protocol lines and
// server lines into output text, keeps the table state (board, ply, seat, offers), and
// tracks which replies a script's `wait` has consumed. main.cpp owns the socket and loop.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "board_text.h"
#include "protocol/messages.h"
#include "xiangqi/notation.h"
#include "xiangqi/position.h"

namespace xq::client {

struct CliOptions {
    std::string name;
    std::string password;  // the server's password, if it has one (hello.password)
    bool batch = false;  // print server lines verbatim (JSON), local notes as JSON lines
    BoardStyle style;
    Notation notation = Notation::Chinese;  // how moves are shown in interactive mode
    int default_wait_ms = 10000;
};

// A script's `wait <type> [key=value ...] [timeout=S]`: satisfied by the next server line
// of that type (after the line the previous wait matched) whose fields equal the values.
struct WaitSpec {
    std::string type;
    std::vector<std::pair<std::string, std::string>> fields;
    int timeout_ms = 10000;
};

struct CommandResult {
    std::vector<std::string> send;  // complete lines (without '\n') for the server
    std::string send_raw;           // bytes to send verbatim (attack scripts), may be empty
    std::optional<WaitSpec> wait;
    int sleep_ms = 0;
    bool quit = false;
};

class CliApp {
public:
    explicit CliApp(CliOptions options);

    // The first line to send: hello with the chosen name (and a resume token if given).
    std::string hello_line(const std::string& resume_token = {}) const;

    // One line typed by the user or read from a script.
    CommandResult handle_command(std::string_view line);
    // One line received from the server.
    void handle_server_line(const std::string& line);
    // A local problem (bad command, timeout, lost connection) as output.
    void note_error(std::string_view message);
    // Lines owed to the server because of received lines (pong for the server's ping);
    // taking them clears them. The caller sends them at once.
    std::vector<std::string> take_replies();

    // Output produced so far; taking it clears it.
    std::string take_output();

    // True (and the wait consumed) when a received line satisfies it.
    bool try_satisfy(const WaitSpec& wait);

    bool welcomed() const { return welcomed_; }
    bool refused() const { return refused_; }  // the server answered hello with an error
    proto::TableId table() const { return table_; }
    const Position& position() const { return pos_; }
    int ply() const { return ply_; }
    std::size_t lines_received() const { return log_.size(); }

private:
    void say(std::string_view text);  // interactive text, or a cli_info JSON line in batch
    // After a page of the lobby's `what` ("tables", "users") that ends at `next` of `total`:
    // how many more there are and the `command` that shows them (nothing at the end).
    void say_rest(std::string_view what, std::string_view command, int next, int total);
    void show_board();
    std::string describe_move_prompt() const;
    CommandResult move_command(std::string_view text);

    CliOptions opt_;
    std::vector<std::string> replies_;
    bool welcomed_ = false;
    bool refused_ = false;
    std::string my_name_;
    proto::TableId table_ = 0;
    proto::Role role_ = proto::Role::Spectator;
    Position pos_;
    Move last_move_;
    int ply_ = 0;
    bool game_over_ = false;
    int last_ai_depth_ = -1;
    // The pending question this client can answer with accept/decline, most recent first.
    enum class Offer { None, Draw, Takeback, Invite, NewGame };
    Offer offer_ = Offer::None;
    proto::TableId invite_table_ = 0;
    std::string invite_from_;

    struct Received {
        std::string type;
        std::string line;
    };
    std::vector<Received> log_;
    std::size_t consumed_ = 0;  // log_ entries before this index cannot satisfy a wait
    std::string out_;
};

// Splits off the first whitespace-separated word; `rest` gets the remainder, trimmed.
std::string_view first_word(std::string_view line, std::string_view& rest);

}  // namespace xq::client
