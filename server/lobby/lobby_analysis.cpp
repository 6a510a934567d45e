// Whole-game analysis requests (analyse_game, cancel_analysis) and hints (request_hint, on
// to the table): one analysis per user and
// MAX_ANALYSES at once, run on the AI pool one position per job, so that an AI seat's search
// waits behind one position at most (and the pool serves the seats' shorter searches first).
#include <boost/asio/post.hpp>

#include <algorithm>
#include <atomic>

#include "book/game_analysis.h"
#include "server/ai/ai_pool.h"
#include "server/lobby/broadcast_delay.h"
#include "server/lobby/game_archive.h"
#include "server/lobby/lobby.h"
#include "xiangqi/notation.h"

namespace xq::server {

namespace {

// Analyses running at once on the server (each holds a worker for one position at a time).
constexpr std::size_t MAX_ANALYSES = 3;
// Node-bounded; this cap only matters on a stalled machine, and it gives the jobs their place
// behind the AI seats' searches in the pool's queue (earliest expected finish first).
constexpr int ANALYSIS_POSITION_MS = 2000;

}  // namespace

struct Lobby::AnalysisRun {
    SessionId session = 0;
    std::int64_t id = 0;
    Position start;
    std::vector<Move> moves;  // positions analysed: moves.size() + 1
    std::vector<int> evals;
    std::vector<std::string> best;
    std::vector<int> losses;         // per move analysed, as marked (book moves lose nothing)
    std::vector<int> engine_losses;  // and as the engine measured them (book::remove_lean)
    std::shared_ptr<std::atomic<bool>> stop = std::make_shared<std::atomic<bool>>(false);
    std::size_t total() const { return moves.size() + 1; }
};

void Lobby::handle(User& u, const proto::AnalyseGame& m) {
    // id 0: the game given in the request (not in the archive, nothing is stored).
    const bool given = m.id == 0;
    if (!ai_ || (!given && !archive_)) {
        refuse(u, proto::ErrorCode::NotAllowed,
               ai_ ? "this server keeps no game archive" : "this server has no AI to analyse with", m.TYPE);
        return;
    }
    if (!given) {
        // One made at another budget (or before losses were kept) is made again.
        if (auto stored = archive_->analysis(m.id);
            stored && stored->nodes == std::int64_t(book::ANALYSIS_NODES) &&
            stored->losses.size() + 1 >= stored->evals.size()) {
            send_msg(u, *stored);
            return;
        }
    }
    if (auto it = analyses_.find(u.id); it != analyses_.end()) {
        refuse(u, proto::ErrorCode::NotAllowed,
               "your analysis of game " + std::to_string(it->second->id) +
                   " is still running (one at a time; cancel_analysis stops it)",
               m.TYPE);
        return;
    }
    if (analyses_.size() >= MAX_ANALYSES) {
        refuse(u, proto::ErrorCode::NotAllowed,
               "the server runs " + std::to_string(MAX_ANALYSES) + " analyses already; try again later", m.TYPE);
        return;
    }
    std::string fen = m.start_fen;
    std::vector<std::string> moves = m.moves;
    if (!given) {
        auto record = archive_->get_game(m.id);
        if (!record) {
            refuse(u, proto::ErrorCode::NoSuchGame, "no game " + std::to_string(m.id) + " in the archive", m.TYPE);
            return;
        }
        if (const proto::TableId t = delayed_table(tables_, *archive_, u.id, m.id)) {
            refuse(u, proto::ErrorCode::NotAllowed, delayed_message(t), m.TYPE);
            return;
        }
        fen = record->start_fen;
        moves = std::move(record->moves);
    } else if (fen.empty()) {
        fen = std::string(START_FEN);
    }
    auto run = std::make_shared<AnalysisRun>();
    run->session = u.id;
    run->id = m.id;
    if (const FenError e = run->start.set_fen(fen); e != FenError::None) {
        if (given)
            refuse(u, proto::ErrorCode::BadFen, "bad start_fen: " + std::string(fen_error_message(e)), m.TYPE, 0,
                   std::string(proto::fen_error_detail(e)));
        else refuse(u, proto::ErrorCode::Internal, "game " + std::to_string(m.id) + " does not replay", m.TYPE);
        return;
    }
    Position pos = run->start;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (run->total() >= std::size_t(proto::MAX_ANALYSIS_POSITIONS)) break;
        const ParsedMove pm = parse_iccs(pos, moves[i]);
        if (!pm.move) {
            if (!given) break;  // a damaged record: analyse what replays
            // A given game must replay as it was sent: its analysis would belong to another one.
            refuse(u, proto::ErrorCode::IllegalMove,
                   "moves[" + std::to_string(i) + "] is not a legal move where it stands", m.TYPE);
            return;
        }
        UndoInfo undo;
        pos.do_move(pm.move, undo);
        run->moves.push_back(pm.move);
    }
    analyses_[u.id] = run;
    send_msg(u, proto::AnalysisProgress{m.id, 0, int(run->total())});
    analysis_step(run);
}

// A hint is the table's business (Table::request_hint): the sender must be at it.
void Lobby::handle(User& u, const proto::RequestHint& m) {
    if (Table* t = at_table(u, m.table, m.TYPE)) report(u, t->request_hint(u.id), m.TYPE, m.table);
}

void Lobby::handle(User& u, const proto::CancelAnalysis& m) {
    auto it = analyses_.find(u.id);
    if (it == analyses_.end() || it->second->id != m.id) {
        refuse(u, proto::ErrorCode::NotAllowed, "no analysis of game " + std::to_string(m.id) + " is running for you",
               m.TYPE);
        return;
    }
    const auto run = it->second;
    cancel_analysis(u.id);
    send_msg(u, proto::AnalysisProgress{run->id, int(run->evals.size()), int(run->total()), true});
}

void Lobby::cancel_analysis(SessionId s) {
    auto it = analyses_.find(s);
    if (it == analyses_.end()) return;
    it->second->stop->store(true);  // a job of it still queued or running reports nothing
    analyses_.erase(it);
}

void Lobby::analysis_step(const std::shared_ptr<AnalysisRun>& run) {
    AiJob job;
    job.start = run->start;
    const std::size_t ply = run->evals.size();
    job.moves.assign(run->moves.begin(), run->moves.begin() + std::ptrdiff_t(ply));
    const Move played = ply < run->moves.size() ? run->moves[ply] : Move::none();
    job.limits.nodes = book::ANALYSIS_NODES;
    job.limits.depth = book::ANALYSIS_DEPTH;
    job.limits.movetime_ms = ANALYSIS_POSITION_MS;  // the job's place in the queue (see above)
    job.stop = run->stop;
    // Written on the worker by think, read by on_done on the same worker, then posted.
    auto found = std::make_shared<book::PositionEval>();
    job.think = [found, played](engine::Engine& engine, const AiJob& j) {
        *found = book::analyse_position(engine, j.start, j.moves, played, {}, j.stop.get());
        return found->search;
    };
    std::weak_ptr<int> alive = analyses_alive_;
    boost::asio::io_context& io = io_;
    job.on_done = [this, alive, &io, run, found](const engine::Result&) {
        boost::asio::post(io, [this, alive, run, found] {
            if (alive.expired() || run->stop->load()) return;
            analysis_done(run, *found);
        });
    };
    ai_->submit(std::move(job));
}

void Lobby::analysis_done(const std::shared_ptr<AnalysisRun>& run, const book::PositionEval& e) {
    run->evals.push_back(std::clamp(e.eval_cp, -30000, 30000));
    run->best.push_back(e.search.best ? move_to_iccs(e.search.best) : std::string());
    if (run->evals.size() <= run->moves.size()) {
        run->losses.push_back(std::clamp(e.judged_loss_cp(), 0, 30000));
        run->engine_losses.push_back(e.loss_cp);
    }
    User* u = find(run->session);
    if (!u) {
        cancel_analysis(run->session);
        return;
    }
    if (run->evals.size() < run->total()) {
        send_msg(*u, proto::AnalysisProgress{run->id, int(run->evals.size()), int(run->total())});
        analysis_step(run);
        return;
    }
    book::remove_lean(run->evals, run->engine_losses, run->start.side_to_move());
    proto::Analysis done{run->id, std::int64_t(book::ANALYSIS_NODES), run->evals, run->best, run->losses};
    analyses_.erase(run->session);
    if (run->id != 0 && archive_) archive_->save_analysis(done);
    send_msg(*u, done);
}

}  // namespace xq::server
