// The client's remembered settings and seats: one text file in the XDG config folder
// ($XDG_CONFIG_HOME/xiangqi/client.conf, else ~/.config/xiangqi/client.conf).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/client_state.h"
#include "core/strings.h"

namespace xq::client {

// How many recent servers and resume tokens the file keeps (newest first).
constexpr std::size_t CONFIG_MAX_RECENT = 8;
constexpr std::size_t CONFIG_MAX_TOKENS = 16;
// Endgame challenges the file remembers (the collection has 48; room for more).
constexpr std::size_t CONFIG_MAX_ENDGAMES = 500;

// The file, one `key=value` a line ('#' starts a comment line, unknown keys are kept out):
//   nickname=Alice            last nickname that logged in
//   server=127.0.0.1:5050     last server connected to
//   recent=HOST:PORT          one line per recent server, newest first
//   lang=zh|en  theme=0|1  notation=chinese|wxf|iccs  sound=0|1
//   resume=TOKEN SERVER NAME  the seat token the server gave NAME at SERVER (newest first)
//   endgame=ID TRIED SOLVED   an endgame challenge: times started, 1 once solved
struct ClientConfig {
    struct Resume {
        std::string token, server, name;
    };
    std::string nickname;
    std::string server;
    std::vector<std::string> recent;
    std::optional<Lang> lang;
    std::optional<int> theme;
    std::optional<MoveNotation> notation;
    std::optional<bool> sound;
    std::vector<Resume> resume;
    struct EndgameProgress {
        int tried = 0;
        bool solved = false;
    };
    std::map<std::string, EndgameProgress> endgames;  // by challenge id

    // The token stored for `name` at `server`, or "".
    std::string token_for(std::string_view server, std::string_view name) const;
    // Remembers a token (newest first; an empty token forgets the pair).
    void set_token(const std::string& server, const std::string& name, const std::string& token);
    void add_recent(const std::string& server);
};

// The folder: $XDG_CONFIG_HOME/xiangqi, else $HOME/.config/xiangqi; empty when neither is set.
std::filesystem::path config_dir();

// Reads the text; lines it cannot use are named in `problems` and skipped (the rest counts).
ClientConfig parse_config(std::string_view text, std::vector<std::string>& problems);
std::string format_config(const ClientConfig& config);

// Reads `file` (a missing file is an empty config), lets `change` edit it, and writes it back
// atomically (a temporary file renamed over it), so two clients sharing the folder keep each
// other's tokens. False with `error` when the folder or file cannot be written.
bool update_config_file(const std::filesystem::path& file, const std::function<void(ClientConfig&)>& change,
                        std::string& error);
// Reads `file`; a missing file is an empty config. Unusable lines go to `problems`.
ClientConfig load_config_file(const std::filesystem::path& file, std::vector<std::string>& problems);

}  // namespace xq::client
