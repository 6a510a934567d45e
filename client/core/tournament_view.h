// The client's view of the server's tournaments: the list, the tournaments it has seen whole
// (`tournament` lines), and what the tournament screen shows of one: standings with their
// tie-breaks, the crosstable, the round's boards. Plain data and functions, no drawing.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/strings.h"
#include "protocol/messages.h"

namespace xq::client {

// A tournament's whole PGN text fetched page by page (get_tournament_pgn): one request out at
// a time, each page appended at the offset asked for. A page whose digest or total differs
// from the first page's (a result came in meanwhile) starts again from offset 0, at most
// MAX_RESTARTS times; pages that do not add up to `total` fail the fetch.
class TournamentPgnFetch {
public:
    enum class Status { Idle, Fetching, Done, Failed };
    static constexpr int MAX_RESTARTS = 3;

    // The first request (offset 0, the largest page); drops any fetch under way.
    proto::GetTournamentPgn start(std::uint32_t tournament, proto::PgnNotation notation);
    // Takes an answer: the next request while the text is incomplete, nullopt once it is
    // whole (Done), failed, or when the page is not the one awaited (another tournament, a
    // stale offset: ignored).
    std::optional<proto::GetTournamentPgn> take(const proto::TournamentPgn& page);
    // The server refused the request: `code` the protocol's error code.
    void fail(std::string code);

    Status status() const { return status_; }
    std::uint32_t tournament() const { return tournament_; }
    const std::string& text() const { return text_; }  // whole once Done (empty: no game yet)
    std::int64_t total() const { return total_; }
    int restarts() const { return restarts_; }
    // Failed: the server's error code, or "" when the pages did not fit together.
    const std::string& error() const { return error_; }

private:
    proto::GetTournamentPgn request(std::int64_t offset) const;
    void failed(std::string code);

    Status status_ = Status::Idle;
    std::uint32_t tournament_ = 0;
    proto::PgnNotation notation_ = proto::PgnNotation::Iccs;
    std::string text_, digest_, error_;
    std::int64_t total_ = 0;
    int restarts_ = 0;
};

struct TournamentsState {
    std::vector<proto::TournamentSummary> list;         // the last `tournaments` answer
    std::map<std::uint32_t, proto::Tournament> known;  // the last `tournament` line of each
    const proto::Tournament* find(std::uint32_t id) const {
        const auto it = known.find(id);
        return it == known.end() ? nullptr : &it->second;
    }
    TournamentPgnFetch pgn;  // the tournament's PGN being fetched (Save PGN)
    std::map<std::uint32_t, bool> paused;  // tables whose game an arbiter paused (by arbiter_action)
};

// An entrant's name as shown: the AI entrants ("AI level 4", "AI level 4 #2") in `lang`.
std::string entrant_name(Lang lang, const proto::Tournament& t, int index);
// Whether `name` is entered (and not withdrawn) in `t`.
bool entered(const proto::Tournament& t, const std::string& name);
// Sonneborn-Berger from its doubled wire value: "3", "3.5".
std::string half_points(int doubled);
// "round-robin" / "Swiss", "open" / "running" / "finished", in `lang`.
std::string format_words(Lang lang, proto::TournamentFormat f);
std::string state_words(Lang lang, proto::TournamentState s);
// A board's result as shown: "1-0", "½-½", "0-1", "+/-" (forfeits), "bye", "…" undecided.
std::string board_result_text(Lang lang, proto::BoardResult r);

// A file name for a tournament's PGN: "<name>.pgn" with nothing a file system could refuse
// or read as a folder.
std::string tournament_file_name(const std::string& name);

// The new tournament form's numbers checked against the protocol's limits: the first problem
// in words (the no-show forfeit 1-3600 s, then the spectator delay 0-20 plies), Str::Ok when
// both fit.
Str tournament_form_problem(int forfeit_seconds, int spectator_delay);

// The director's tools at a board (pause, resume, add time, adjudicate, cancel): the panel's
// fields, the problem the server would refuse them for (Str::Ok when none: add_time's
// seconds outside 1-3600; an adjudication without a reason, blanks not counting), and the
// `arbiter` request they make.
struct ArbiterForm {
    Color side = RED;     // add_time: whose clock
    int seconds = 60;     // add_time
    Outcome result = Outcome::Draw;  // adjudicate (no side favoured until chosen)
    std::string reason;   // adjudicate (required), cancel (optional)
};
Str arbiter_problem(proto::ArbiterKind action, const ArbiterForm& f);
proto::ArbiterRequest arbiter_request(std::uint32_t table, proto::ArbiterKind action, const ArbiterForm& f);

// The crosstable: rows and columns in standings order; cell [i][j] the points row i scored
// against column j over their games ("2" a win, "1" a draw, "0" a loss, "+" / "-" a forfeit
// won / lost; several games joined by spaces), "" when they have not met; the diagonal "x".
struct Crosstable {
    std::vector<int> order;                      // entrant indices, best first
    std::vector<std::vector<std::string>> cells;
    std::vector<int> byes;                       // byes per row
};
Crosstable crosstable(const proto::Tournament& t);

}  // namespace xq::client
