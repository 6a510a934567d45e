#include "server/store/explorer_index.h"

#include "server/store/archive.h"
#include "server/store/storage.h"
#include "server/table/table.h"

namespace xq::server {

int ExplorerIndex::load(Storage& storage, int max_games) {
    GameFilter f;
    f.finished_only = true;
    f.limit = MAX_GAME_LIST;
    int added = 0;
    while (added < max_games) {
        const auto page = storage.list_games(f);
        for (const auto& g : page) {
            if (added >= max_games) break;
            auto rec = storage.get_game(g.id);
            if (!rec) continue;
            auto game = replay(*rec);
            if (!game) continue;  // a damaged record shows nothing
            games_.add_game(game->start_position(), game->moves(), game->result().outcome, EXPLORER_PLIES);
            ++added;
        }
        if (int(page.size()) < MAX_GAME_LIST) break;
        f.before_id = page.back().id;
    }
    added_ += std::uint64_t(added);
    return added;
}

void ExplorerIndex::game_started(const Table& t) { done_.erase(t.id()); }

void ExplorerIndex::game_over(const Table& t, const proto::GameOver& go) {
    if (go.result.outcome == Outcome::Ongoing || t.game().moves().empty() || done_.count(t.id())) return;
    done_.insert(t.id());
    games_.add_game(t.game().start_position(), t.game().moves(), go.result.outcome, EXPLORER_PLIES);
    ++added_;
}

}  // namespace xq::server
