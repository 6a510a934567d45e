// The opening explorer (get_explorer): the moves played from a position in the server's game
// archive (finished games only, see store/explorer_index.h) and in the AI's opening book. The
// position comes from the request (a FEN and moves), never from a table's live board, so a
// spectator learns nothing a broadcast delay still holds back; the players of a running game
// get no help from it.
#include <algorithm>

#include "book/opening_book.h"
#include "server/lobby/lobby.h"
#include "xiangqi/notation.h"

namespace xq::server {

namespace {

proto::ExplorerStats stats_of(const book::MoveStats& s) {
    return proto::ExplorerStats{int(s.plays), int(s.wins), int(s.draws), int(s.losses)};
}

int plays(const std::optional<proto::ExplorerStats>& s) { return s ? s->plays : 0; }

}  // namespace

void Lobby::handle(User& u, const proto::GetExplorer& m) {
    if (u.table != 0) {
        const Table* t = table(u.table);
        if (t && t->status() == proto::TableStatus::Playing &&
            (t->seat(RED).session == u.id || t->seat(BLACK).session == u.id)) {
            refuse(u, proto::ErrorCode::NotAllowed, "the explorer is closed to the players of a running game", m.TYPE,
                   u.table);
            return;
        }
    }
    if (m.moves.size() > proto::MAX_EXPLORER_PLIES) {
        refuse(u, proto::ErrorCode::BadField,
               "moves: at most " + std::to_string(proto::MAX_EXPLORER_PLIES) + " moves", m.TYPE);
        return;
    }
    Position pos;
    if (const FenError e = pos.set_fen(m.fen.empty() ? std::string(START_FEN) : m.fen); e != FenError::None) {
        refuse(u, proto::ErrorCode::BadFen, "bad fen: " + std::string(fen_error_message(e)), m.TYPE, 0,
               std::string(proto::fen_error_detail(e)));
        return;
    }
    for (std::size_t i = 0; i < m.moves.size(); ++i) {
        const ParsedMove pm = parse_iccs(pos, m.moves[i]);
        if (!pm.move) {
            refuse(u, proto::ErrorCode::IllegalMove,
                   "moves[" + std::to_string(i) + "] is not a legal move where it stands", m.TYPE);
            return;
        }
        UndoInfo undo;
        pos.do_move(pm.move, undo);
    }
    std::vector<proto::ExplorerMove> found;
    auto entry = [&](Move mv) -> proto::ExplorerMove& {
        const std::string text = to_iccs(mv);
        for (auto& e : found)
            if (e.move == text) return e;
        return found.emplace_back(proto::ExplorerMove{text, std::nullopt, std::nullopt});
    };
    if (explorer_games_)
        for (const auto& bm : explorer_games_->candidates(pos)) entry(bm.move).games = stats_of(bm.stats);
    if (book_)
        for (const auto& bm : book_->candidates(pos)) entry(bm.move).book = stats_of(bm.stats);
    std::sort(found.begin(), found.end(), [](const proto::ExplorerMove& a, const proto::ExplorerMove& b) {
        const int pa = plays(a.games) + plays(a.book), pb = plays(b.games) + plays(b.book);
        if (pa != pb) return pa > pb;
        if (plays(a.games) != plays(b.games)) return plays(a.games) > plays(b.games);
        return a.move < b.move;
    });
    proto::Explorer out;
    out.fen = pos.fen();
    out.more = found.size() > proto::MAX_EXPLORER_MOVES;
    if (out.more) found.resize(proto::MAX_EXPLORER_MOVES);
    out.moves = std::move(found);
    send_msg(u, out);
}

}  // namespace xq::server
