// Storage, the tournaments: each saved as its `tournament` line and the tables of its games,
// so the tournament desk takes them up again after a restart.
#include "server/store/storage.h"

#include <charconv>
#include <sstream>
#include <system_error>

namespace xq::server {

namespace {

using Stmt = SqliteStatement;

}  // namespace

bool Storage::save_tournament(const StoredTournament& t) {
    if (t.state.size() > MAX_TOURNAMENT_STATE || t.game_tables.size() > MAX_TOURNAMENT_STATE)
        return db_->fail("the state of tournament " + std::to_string(t.id) + " is over " +
                         std::to_string(MAX_TOURNAMENT_STATE) + " bytes");
    std::string tables;
    for (std::int64_t table : t.game_tables) {
        if (!tables.empty()) tables += ',';
        tables += std::to_string(table);
    }
    Stmt q = db_->statement("INSERT INTO tournaments(id, state, game_tables, updated) VALUES(?1,?2,?3,?4) "
                            "ON CONFLICT(id) DO UPDATE SET state=?2, game_tables=?3, updated=?4");
    if (!q) return false;
    return q.bind(1, t.id).bind(2, t.state).bind(3, tables).bind(4, unix_ms_now()).run();
}

bool Storage::forget_tournament(std::int64_t id) {
    Stmt q = db_->statement("DELETE FROM tournaments WHERE id=?1");
    if (!q) return false;
    return q.bind(1, id).run();
}

std::vector<StoredTournament> Storage::tournaments() {
    std::vector<StoredTournament> out;
    Stmt q = db_->statement("SELECT id, state, game_tables FROM tournaments ORDER BY id");
    if (!q) return out;
    while (q.row()) {
        StoredTournament t{q.i64(0), q.text(1), {}};
        std::istringstream in(q.text(2));
        for (std::string item; std::getline(in, item, ',');) {
            std::int64_t table = 0;
            const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), table);
            t.game_tables.push_back(ec == std::errc() && end == item.data() + item.size() ? table : 0);
        }
        out.push_back(std::move(t));
    }
    return out;
}

}  // namespace xq::server
