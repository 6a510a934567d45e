// Storage, what the server learned from its games: whole-game analyses (one per game) and the
// opening book's learned counts.
#include "server/store/storage.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace xq::server {

namespace {

using Stmt = SqliteStatement;

}  // namespace

bool Storage::learn_book(const std::vector<LearnedBookMove>& moves) {
    if (moves.empty()) return true;
    SqliteTransaction transaction(*db_);
    if (!transaction) return false;
    Stmt q = db_->statement("INSERT INTO book_learned(key, move, plays, wins, draws, losses) VALUES(?1, ?2, ?3, ?4, ?5, ?6) "
                            "ON CONFLICT(key, move) DO UPDATE SET plays=plays+excluded.plays, wins=wins+excluded.wins, "
                            "draws=draws+excluded.draws, losses=losses+excluded.losses");
    if (!q) return false;
    for (const auto& m : moves) {
        const bool done = q.bind(1, static_cast<std::int64_t>(m.key))
                              .bind(2, std::int64_t(m.move))
                              .bind(3, std::int64_t(m.plays))
                              .bind(4, std::int64_t(m.wins))
                              .bind(5, std::int64_t(m.draws))
                              .bind(6, std::int64_t(m.losses))
                              .run();
        q.reset();
        if (!done) return false;
    }
    return transaction.commit();
}

std::vector<LearnedBookMove> Storage::learned_book() {
    std::vector<LearnedBookMove> out;
    Stmt q = db_->statement("SELECT key, move, plays, wins, draws, losses FROM book_learned ORDER BY key, move");
    if (!q) return out;
    auto count = [](std::int64_t v) {
        return static_cast<std::uint32_t>(std::clamp<std::int64_t>(v, 0, std::numeric_limits<std::uint32_t>::max()));
    };
    while (q.row()) {
        LearnedBookMove m;
        m.key = static_cast<std::uint64_t>(q.i64(0));
        const std::int64_t move = q.i64(1);
        if (move <= 0 || move > 0xFFFF) continue;  // not a move this program wrote
        m.move = static_cast<std::uint16_t>(move);
        m.plays = count(q.i64(2));
        m.wins = count(q.i64(3));
        m.draws = count(q.i64(4));
        m.losses = count(q.i64(5));
        out.push_back(m);
    }
    return out;
}

int Storage::forget_learned_book() {
    Stmt q = db_->statement("DELETE FROM book_learned");
    if (!q) return -1;
    if (!q.run()) return -1;
    return db_->changes();
}

bool Storage::save_analysis(const StoredAnalysis& a) {
    if (a.evals.size() != a.best.size()) return db_->fail("an analysis needs one best move per evaluation");
    std::ostringstream evals, best;
    for (std::size_t i = 0; i < a.evals.size(); ++i) {
        if (a.best[i].size() > 4) return db_->fail("a best move is not ICCS");
        if (i > 0) {
            evals << ' ';
            best << ' ';
        }
        evals << a.evals[i];
        best << (a.best[i].empty() ? std::string_view("-") : std::string_view(a.best[i]));
    }
    if (!a.losses.empty()) {
        evals << " |";
        for (int l : a.losses) evals << ' ' << l;
    }
    Stmt q = db_->statement("INSERT OR REPLACE INTO game_analysis(game_id, nodes, evals, best) VALUES(?1, ?2, ?3, ?4)");
    if (!q) return false;
    const std::string evals_text = evals.str(), best_text = best.str();
    return q.bind(1, a.game_id)
        .bind(2, a.nodes)
        .bind(3, std::string_view(evals_text))
        .bind(4, std::string_view(best_text))
        .run();
}

std::optional<StoredAnalysis> Storage::analysis(std::int64_t game_id) {
    Stmt q = db_->statement("SELECT nodes, evals, best FROM game_analysis WHERE game_id=?1");
    if (!q || !q.bind(1, game_id).row()) return std::nullopt;
    StoredAnalysis a;
    a.game_id = game_id;
    a.nodes = q.i64(0);
    const std::string evals_text = q.text(1);
    const std::size_t bar = evals_text.find('|');
    std::istringstream evals(evals_text.substr(0, bar)), best(q.text(2));
    int e = 0;
    while (evals >> e) a.evals.push_back(std::clamp(e, -30000, 30000));
    if (bar != std::string::npos) {
        std::istringstream losses(evals_text.substr(bar + 1));
        while (losses >> e) a.losses.push_back(std::clamp(e, 0, 30000));
    }
    std::string m;
    while (best >> m) a.best.push_back(m == "-" ? std::string() : m.substr(0, 4));
    if (a.evals.size() != a.best.size()) return std::nullopt;  // damaged: as if none
    return a;
}

}  // namespace xq::server
