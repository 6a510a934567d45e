// The opening explorer's side of the session: get_explorer for a position, its answer kept in
// state().explorer and cached by position, its refusal shown in the panel.
#include "core/session.h"

#include "xiangqi/notation.h"

namespace xq::client {

namespace {

// Positions whose answers the session keeps (stepping back and forth asks nothing again).
constexpr std::size_t EXPLORER_CACHE = 64;

ExplorerCounts counts_of(const std::optional<proto::ExplorerStats>& s) {
    if (!s) return {};
    return ExplorerCounts{s->plays, s->wins, s->draws, s->losses};
}

}  // namespace

int ExplorerCounts::win_pct() const {
    const int decided = wins + draws + losses;
    return decided == 0 ? 0 : (wins * 100 + decided / 2) / decided;
}

int ExplorerCounts::loss_pct() const {
    const int decided = wins + draws + losses;
    return decided == 0 ? 0 : (losses * 100 + decided / 2) / decided;
}

int ExplorerCounts::draw_pct() const {
    const int decided = wins + draws + losses;
    return decided == 0 ? 0 : 100 - win_pct() - loss_pct();
}

void Session::explore(const Position& pos) {
    const std::string fen = pos.fen();
    ExplorerState& e = state_.explorer;
    if (e.asked == fen || (e.asked.empty() && e.fen == fen)) return;  // asked, answered or refused
    if (const auto it = explorer_cache_.find(fen); it != explorer_cache_.end()) {
        e = it->second;
        return;
    }
    e.asked = fen;
    proto::GetExplorer m;
    m.fen = fen;
    send(m);
}

void Session::on(const proto::Explorer& m) {
    ExplorerState got;
    got.fen = m.fen;
    got.more = m.more;
    Position pos;
    if (pos.set_fen(m.fen) == FenError::None) {
        for (const auto& mv : m.moves) {
            const ParsedMove pm = parse_iccs(pos, mv.move);
            if (!pm.move) continue;  // not a move of this position: nothing to show for it
            got.rows.push_back(ExplorerRow{pm.move, counts_of(mv.games), counts_of(mv.book)});
        }
    }
    if (explorer_cache_.size() >= EXPLORER_CACHE) explorer_cache_.clear();
    explorer_cache_[m.fen] = got;
    // An answer for a position left meanwhile is kept for later but not shown.
    ExplorerState& e = state_.explorer;
    if (e.asked.empty() || e.asked == m.fen) e = std::move(got);
}

void Session::explorer_refused(const proto::Error& m) {
    ExplorerState& e = state_.explorer;
    e.fen = e.asked;
    e.asked.clear();
    e.rows.clear();
    e.more = false;
    e.error = m.message;
    e.error_code = proto::error_code_name(m.code);
}

}  // namespace xq::client
