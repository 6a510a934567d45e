// The session's identification (`uci`, `ucci`) and options (`setoption`, both protocols'
// forms): hash, threads, level, seed, the opening book file.
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "uci_session.h"

namespace xq::engine {

using namespace uci_detail;

void UciSession::Impl::cmd_uci() {
    say("id name xiangqi-engine");
    say("id author the LAN Xiangqi team");
    say("option name Hash type spin default " + std::to_string(DEFAULT_HASH_MB) + " min 1 max " +
        std::to_string(MAX_HASH_MB));
    say("option name Threads type spin default 1 min 1 max " + std::to_string(MAX_THREADS));
    say("option name Level type spin default 10 min 1 max 10");
    say("option name Seed type spin default 0 min 0 max 2147483647");
    say("option name Clear Hash type button");
    say("option name Ponder type check default false");
    say("option name BookFile type string default <empty>");
    say("option name UCI_Variant type combo default xiangqi var xiangqi");
    say("uciok");
}

void UciSession::Impl::cmd_ucci() {
    proto = Protocol::Ucci;
    say("id name xiangqi-engine");
    say("id author the LAN Xiangqi team");
    say("option usemillisec type check default false");
    say("option hashsize type spin min 1 max " + std::to_string(MAX_HASH_MB) + " default " +
        std::to_string(DEFAULT_HASH_MB));
    say("option level type spin min 1 max 10 default 10");
    say("option seed type spin min 0 max 2147483647 default 0");
    say("ucciok");
}

bool UciSession::Impl::set_option(const std::string& name_in, const std::string& value) {
    const std::string name = lower(name_in);
    long long v = 0;
    if (name == "hash" || name == "hashsize") {
        if (!parse_int(value, 1, MAX_HASH_MB, v)) {
            error("Hash needs a number 1.." + std::to_string(MAX_HASH_MB) + " (MiB)");
            return false;
        }
        engine.set_hash_mb(std::size_t(v));
    } else if (name == "level") {
        if (!parse_int(value, MIN_LEVEL, MAX_LEVEL, v)) {
            error("Level needs a number 1..10");
            return false;
        }
        level = int(v);
    } else if (name == "threads") {
        if (!parse_int(value, 1, MAX_THREADS, v)) {
            error("Threads needs a number 1.." + std::to_string(MAX_THREADS));
            return false;
        }
        engine.set_threads(int(v));
    } else if (name == "seed") {
        if (!parse_int(value, 0, 0x7FFFFFFFLL, v)) {
            error("Seed needs a number 0..2147483647");
            return false;
        }
        seed = std::uint64_t(v);
    } else if (name == "bookfile") {
        if (value.empty() || value == "<empty>") {
            book.reset();
            return true;
        }
        std::ifstream in(value, std::ios::binary);
        if (!in) {
            error("BookFile: cannot read " + value);
            return false;
        }
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::string why;
        auto loaded = book::Book::parse(text, &why);
        if (!loaded) {
            error("BookFile " + value + ": " + why);
            return false;
        }
        book = std::move(*loaded);
        say("info string book " + value + ": " + std::to_string(book->positions()) + " positions");
    } else if (name == "clear hash") {
        engine.new_game();
    } else if (name == "uci_variant") {
        if (lower(value) != "xiangqi") error("only UCI_Variant xiangqi is supported");
    } else if (name == "usemillisec") {
        ucci_millisec = lower(value) == "true" || value == "1";
    } else if (name == "ponder" || name == "multipv" || name == "uci_showwdl" || name == "move overhead" ||
               name == "batch" || name == "debug" || name == "newgame" || name == "promotion" ||
               name == "idle" || name == "style" || name == "knowledge" || name == "pruning" ||
               name == "randomness" || name == "bookfiles" || name == "usebook" || name == "evalfile") {
        // Known GUI options without effect here: accepted silently.
    } else {
        error("unknown option '" + name_in + "'");
        return false;
    }
    return true;
}

void UciSession::Impl::cmd_setoption(std::istringstream& in) {
    std::vector<std::string> tokens;
    for (std::string t; in >> t;) tokens.push_back(t);
    if (proto == Protocol::Ucci && (tokens.empty() || tokens[0] != "name")) {
        // UCCI: setoption <name> <value>
        if (tokens.empty()) {
            error("setoption needs a name");
            return;
        }
        if (tokens[0] == "newgame") {
            engine.new_game();
            return;
        }
        set_option(tokens[0], tokens.size() > 1 ? tokens[1] : "");
        return;
    }
    // UCI: setoption name <words...> [value <words...>]
    std::string name, value;
    std::size_t i = 0;
    if (tokens.empty() || tokens[0] != "name") {
        error("expected 'setoption name <name> [value <value>]'");
        return;
    }
    for (i = 1; i < tokens.size() && tokens[i] != "value"; ++i) name += (name.empty() ? "" : " ") + tokens[i];
    for (++i; i < tokens.size(); ++i) value += (value.empty() ? "" : " ") + tokens[i];
    if (name.empty()) {
        error("setoption needs a name");
        return;
    }
    set_option(name, value);
}

}  // namespace xq::engine
