// Session: the answers about finished games: the archive's lists and records, and the
// progress and result of a whole-game analysis.
#include "core/session.h"

#include "core/move_text.h"
#include "xiangqi/notation.h"

namespace xq::client {

void Session::on(const proto::AnalysisProgress& m) {
    AnalysisState& a = state_.analysis;
    if (m.id != a.game_id || (m.id == 0 && !a.given)) return;  // a cancelled one's last word, or another game's
    a.done = m.done;
    a.total = m.total;
    if (m.cancelled) a.running = false;
}

void Session::on(const proto::Analysis& m) {
    AnalysisState& a = state_.analysis;
    if (m.id != a.game_id || (m.id == 0 && !a.given) || m.evals.size() != m.best.size()) return;
    a.running = false;
    a.done = a.total = int(m.evals.size());
    a.evals = m.evals;
    a.losses = m.losses;
    a.best.clear();
    for (const auto& b : m.best) {
        const Square from = b.size() == 4 ? square_from_string(b.substr(0, 2)) : SQ_NONE;
        const Square to = b.size() == 4 ? square_from_string(b.substr(2, 2)) : SQ_NONE;
        a.best.push_back(from != SQ_NONE && to != SQ_NONE ? Move(from, to) : Move::none());
    }
}

namespace {
ArchiveEntry entry_from(const proto::GameSummary& g) {
    ArchiveEntry e;
    e.id = g.id;
    e.red = g.red;
    e.black = g.black;
    e.result = g.result;
    e.reason = g.reason;
    e.plies = g.plies;
    e.started_ms = g.started;
    e.red_rating = g.red_rating;
    e.black_rating = g.black_rating;
    return e;
}
}  // namespace

std::optional<ArchivedGame> archived_game_from(const proto::GameRecord& r, std::string& error) {
    Position start;
    if (const FenError fe = start.set_fen(r.start_fen); fe != FenError::None) {
        error = "start FEN: " + std::string(fen_error_message(fe));
        return std::nullopt;
    }
    Game game(start);
    std::vector<Move> moves;
    moves.reserve(r.moves.size());
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
        const ParsedMove pm = parse_iccs(game.position(), r.moves[i]);
        if (!pm.ok() || !game.play(pm.move)) {
            error = "move " + std::to_string(i + 1) + " \"" + r.moves[i] + "\" is not legal";
            if (!pm.ok() && !pm.message.empty()) error += ": " + pm.message;
            return std::nullopt;
        }
        moves.push_back(pm.move);
    }
    ArchivedGame out;
    out.entry = entry_from(r.game);
    out.game = Game(start);
    out.moves = describe_moves(start, moves);
    out.text = r.text;
    return out;
}

void Session::on(const proto::Games& m) {
    ArchiveState& a = state_.archive;
    if (!archive_paging_) a.games.clear();
    for (const auto& g : m.games) a.games.push_back(entry_from(g));
    a.more = m.more && !m.games.empty();
    a.loading = false;
    archive_paging_ = false;
}

void Session::on(const proto::GameRecord& m) {
    state_.archive.loading = false;
    std::string error;
    auto game = archived_game_from(m, error);
    if (!game) {
        Cue c;
        c.kind = Cue::Kind::Error;
        c.str = Str::ArchiveBadRecord;
        c.text = std::move(error);
        c.request = "get_game";
        cues_.push_back(std::move(c));
        return;
    }
    state_.archive.opened = std::move(*game);
    cue(Cue::Kind::ArchiveGame);
}

}  // namespace xq::client
