#include "search_internal.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif
#endif

#include "xiangqi/key_after.h"
#include "xiangqi/rulings.h"
#include "xiangqi/tables.h"

// Iterative deepening principal-variation search with aspiration windows, a transposition
// table, quiescence search, null-move pruning, late-move reductions, check extension, and
// the repetition rulings of docs/RULES.md applied inside the tree.
namespace xq::engine {

int Searcher::repetition_score(int ply) const {
    const int n = top_;
    const int floor = irreversible_[n];
    for (int i = n - 4; i >= floor; i -= 2) {
        if (keys_[i] != keys_[n]) continue;
        // Moves i..n-1 bring the current position back to itself. One side checking every
        // time loses at once; both checking every time is a draw; otherwise the referee's
        // full ruling (chases) decides.
        bool all_check[COLOR_NB] = {true, true};
        const Color us = pos_.side_to_move();
        for (int j = i; j < n; ++j) {
            const Color mover = (n - 1 - j) % 2 == 0 ? ~us : us;
            all_check[mover] = all_check[mover] && checks_[j + 1];
        }
        RepetitionVerdict v;
        if (all_check[RED] != all_check[BLACK]) {
            v.decisive = true;
            v.loser = all_check[RED] ? RED : BLACK;
        } else if (!all_check[RED]) {
            v = rule_cycle(pos_, path_.data() + i, n - i).verdict;
        }
        if (!v.decisive) return draw_score();
        // The side to move, the loser, can still leave a cycle that began before the root: its
        // earlier moves were not searched, so the tree did not choose them. The referee rules at
        // the third occurrence; until then the position is searched like any other.
        if (v.loser == us && i < n - ply) {
            bool third = false;
            for (int j = i - 4; j >= floor && !third; j -= 2) third = keys_[j] == keys_[n];
            if (!third) return NO_SCORE;
        }
        // Ranked like mates (a loss is a loss; the longer way is better), reported as rule
        // results (see Searcher::score_for_report).
        return v.loser == us ? mated_in(ply) : mate_in(ply);
    }
    return NO_SCORE;
}

bool Searcher::should_abort() {
    if (stopped_) return true;
    if (max_nodes_ && nodes_ >= max_nodes_) return stopped_ = true;
    // A level's node cap never cuts depth 1 short: a weak move must still be a considered one.
    if (level_nodes_ && completed_depth_ > 0 && nodes_ >= level_nodes_) return stopped_ = true;
    if ((nodes_ & 255) == 0) {
        if (thread_id_ > 0) {
            impl_.helper_nodes.fetch_add(nodes_ - published_nodes_, std::memory_order_relaxed);
            published_nodes_ = nodes_;
        }
        if (stop_ && stop_->load(std::memory_order_relaxed)) return stopped_ = true;
        if (hard_ms_ && !pondering() && clock_ms() >= hard_ms_) return stopped_ = true;
    }
    return false;
}

bool Searcher::pondering() {
    if (!pondering_) return false;
    if (limits_.pondering->load(std::memory_order_relaxed)) return true;
    pondering_ = false;
    clock_start_ = Clock::now();
    return false;
}

template <Color them>
void Searcher::score_moves(const MoveList& list, int* scores, Move tt_move, int ply) const {
    const Frame& f = frames_[ply];
    // Read once: a store into scores[] (int) could alias the list's count or the history.
    const int n = list.size();
    const Move killer0 = f.killers[0], killer1 = f.killers[1];
    const auto& history = td_.history;
    for (int i = 0; i < n; ++i) {
        const Move m = list[i];
        if (m == tt_move) {
            scores[i] = SCORE_TT;
            continue;
        }
        const Piece moved = pos_.moved_piece(m);
        const Piece victim = pos_.piece_on(m.to());
        if (victim != NO_PIECE) {
            const int vv = PIECE_VALUE[type_of(victim)], av = PIECE_VALUE[type_of(moved)];
            const int mvv_lva = vv * 8 - av / 16;
            const bool bad = av > vv + 50 && pos_.is_attacked<them>(m.to());
            scores[i] = (bad ? SCORE_BAD_CAPTURE : SCORE_GOOD_CAPTURE) + mvv_lva;
        } else if (m == killer0) {
            scores[i] = SCORE_KILLER + 1;
        } else if (m == killer1) {
            scores[i] = SCORE_KILLER;
        } else {
            scores[i] = history[moved][m.to()];
        }
    }
    for (int i = 0; i < SCORE_PAD; ++i) scores[n + i] = INT_MIN;
}
template void Searcher::score_moves<RED>(const MoveList&, int*, Move, int) const;
template void Searcher::score_moves<BLACK>(const MoveList&, int*, Move, int) const;

namespace {

// Lazy selection: most nodes cut off after one to three moves, so picking the best remaining
// move each time beats sorting the whole list. The pick is the first of the highest scores: the
// highest score first, then where it first occurs. Both scans read eight scores at a time
// (SSE2, part of every x86-64 processor; the entries past the end are INT_MIN, see SCORE_PAD):
// in the nodes where every move is tried, the picks were a tenth of the search's instructions.
inline Move pick_next(MoveList& list, int* scores, int i) {
    const int n = list.size();
    int best = i;
#if defined(__SSE2__)
    // Signed maximum lane by lane: pmaxsd where the build targets SSE4.1 (x86-64-v2, XQ_ARCH),
    // else from a comparison (SSE2 has no pmaxsd).
    auto max4 = [](__m128i a, __m128i b) {
#if defined(__SSE4_1__)
        return _mm_max_epi32(a, b);
#else
        const __m128i greater = _mm_cmpgt_epi32(a, b);
        return _mm_or_si128(_mm_and_si128(greater, a), _mm_andnot_si128(greater, b));
#endif
    };
    // Eight scores a step (two registers): half the loop exits to mispredict.
    auto load = [&](int j) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(scores + j)); };
    __m128i top = _mm_set1_epi32(INT_MIN);
    for (int j = i; j < n; j += 8) top = max4(max4(load(j), load(j + 4)), top);
    top = max4(top, _mm_shuffle_epi32(top, _MM_SHUFFLE(1, 0, 3, 2)));
    top = max4(top, _mm_shuffle_epi32(top, _MM_SHUFFLE(2, 3, 0, 1)));  // the maximum in every lane
    for (;; best += 8) {
        const __m128i equal = _mm_packs_epi32(_mm_cmpeq_epi32(load(best), top), _mm_cmpeq_epi32(load(best + 4), top));
        if (const unsigned mask = unsigned(_mm_movemask_epi8(equal))) {  // two bits a score
            best += std::countr_zero(mask) / 2;
            break;
        }
    }
#else
    int top = scores[i];
    for (int j = i + 1; j < n; ++j) top = std::max(top, scores[j]);
    while (scores[best] != top) ++best;
#endif
    if (best != i) {
        std::swap(list.moves[i], list.moves[best]);
        std::swap(scores[i], scores[best]);
    }
    return list.moves[i];
}

}  // namespace

// The move at i of the lazily sorted list. The next one is picked now too (the same order:
// picking it only swaps entries after i) and its child's table bucket and evaluation line
// prefetched, to arrive while this move is searched; the make() prefetch alone comes too late
// to hide the miss. The first move's child is prefetched as soon as the move is picked, before
// its legality and check tests: 2-6% less CPU time for the same nodes (twentieth session). (A
// version with one lambda for both prefetches compiled to fewer instructions but ran 4-7%
// slower than main's build: measure a change to this function, do not only count it.)
[[gnu::always_inline]] inline Move Searcher::pick_ahead(MoveList& list, int* scores, int i) {
    Move m = list.moves[i];
    if (i == 0) {
        m = pick_next(list, scores, 0);
        const std::uint64_t k = key_after(pos_, m);
        tt_.prefetch(k);
        td_.prefetch_eval(k);
    }
    if (i + 1 < list.size()) {
        const std::uint64_t k = key_after(pos_, pick_next(list, scores, i + 1));
        tt_.prefetch(k);
        td_.prefetch_eval(k);
    }
    return m;
}

// Drops the quiet moves that give no check from the unsearched moves (from i on; the move at i
// may already be picked) and puts the moves that stay in the order the picks would give them.
// The picks take the highest score first, so moves of different scores keep their order.
// Among equal scores the picks take the first in the list, but a pick swaps the move it takes
// with the move at the front of the unpicked part, so a move can change places while the
// moves of higher scores are picked: only the moves in the first `higher` places of the
// unpicked part, where `higher` counts the higher scores. When every group of equal scores
// that stays starts after those places, its moves are picked in the order they stand;
// otherwise the list stays as it is (the moves are then picked and skipped one by one).
void Searcher::drop_late_quiets(MoveList& list, int* scores, int i) const {
    int stay[MAX_MOVES];
    int kept = 0;
    for (int j = i; j < list.size(); ++j) {
        const Move m = list.moves[j];
        if (!pos_.is_capture(m) && !pos_.may_give_check(m)) continue;
        int k = 0;  // the first move kept with this score (the lowest place of its group)
        while (k < kept && scores[stay[k]] != scores[j]) ++k;
        bool second = k < kept;  // j is the group's second move: check the group once
        for (int l = k + 1; second && l < kept; ++l) second = scores[stay[l]] != scores[j];
        if (second) {
            int higher = 0;
            for (int h = i; h < list.size(); ++h) higher += scores[h] > scores[j];
            if (stay[k] < i + higher) return;  // the group may have changed places: keep the list
        }
        stay[kept++] = j;
    }
    // Insertion sort, highest first and stable (a handful of moves), into [i, i + kept): stay[]
    // ascends, so each move is written at or before its own index and none is overwritten unread.
    for (int k = 0; k < kept; ++k) {
        const Move m = list.moves[stay[k]];
        const int v = scores[stay[k]];
        int at = i + k;
        for (; at > i && scores[at - 1] < v; --at) {
            list.moves[at] = list.moves[at - 1];
            scores[at] = scores[at - 1];
        }
        list.moves[at] = m;
        scores[at] = v;
    }
    list.count = i + kept;
    for (int k = 0; k < SCORE_PAD; ++k) scores[list.count + k] = INT_MIN;
}

void Searcher::update_quiet_stats(Move best, const Move* quiets, int quiet_count, int depth, int ply) {
    Frame& f = frames_[ply];
    if (f.killers[0] != best) {
        f.killers[1] = f.killers[0];
        f.killers[0] = best;
    }
    const int bonus = std::min(depth * depth + depth, 1200);
    auto adjust = [&](Move m, int b) {
        int& h = td_.history[pos_.moved_piece(m)][m.to()];
        h += b - h * std::abs(b) / HISTORY_MAX;
    };
    adjust(best, bonus);
    for (int i = 0; i < quiet_count; ++i)
        if (quiets[i] != best) adjust(quiets[i], -bonus);
}

int Searcher::qsearch(int alpha, int beta, int ply) {
    ++nodes_;
    XQ_STAT(++stats_.qnodes);
    if (should_abort()) return 0;
    seldepth_ = std::max(seldepth_, ply);
    frames_[ply].pv_len = 0;
    if (ply > 0) {
        const int rep = repetition_score(ply);
        if (rep != NO_SCORE) return rep;
    }
    if (ply >= MAX_PLY) return evaluate(pos_);
    const bool check = in_check();
    XQ_STAT(stats_.qnodes_check += check);

    // The static evaluation comes before the table probe: the probe's bucket is usually still
    // on its way from memory, and it arrives while the evaluation runs. The probe decides as
    // before (a cut-off or the entry's evaluation wins), so the tree is the same.
    const int static_eval = check ? 0 : td_.cached_eval(pos_, psq_[top_]);
    TTEntry tt_copy;
    const TTEntry* tte = tt_.probe(pos_.key(), tt_copy);
    Move tt_move;
    if (tte) {
        const int v = score_from_tt(tte->score, ply);
        const Bound b = tte->bound();
        if ((b == Bound::Exact) || (b == Bound::Lower && v >= beta) || (b == Bound::Upper && v <= alpha))
            return v;
        tt_move = Move::from_raw(tte->move);
    }

    int best = -INF;
    int stand = 0;
    if (!check) {
        stand = tte ? tte->eval : static_eval;
        if (stand >= beta) return stand;
        if (stand > alpha) alpha = stand;
        best = stand;
    }

    MoveList list;
    // In check: what a move other than the king's must touch to be legal. (The same test in the
    // main search's nodes in check ran no faster: they are few, and the code there is sensitive
    // to layout.)
    Position::CheckMask check_mask;
    if (check) {
        pos_.generate_pseudo(list);
        check_mask = pos_.check_mask();
    } else {
        pos_.generate_captures(list);
    }
    int scores[MAX_MOVES + SCORE_PAD];
    score_moves(list, scores, tt_move, ply);

    int legal = 0;
    Move best_move;
    UndoInfo u;
    for (int i = 0; i < list.size(); ++i) {
        const Move m = pick_ahead(list, scores, i);
        // Not in check, the legal moves are not counted: the prunings come first, and the
        // legality test only for the captures that are searched.
        if (!check) {
            const Piece victim = pos_.piece_on(m.to());
            const int vv = PIECE_VALUE[type_of(victim)];
            // Delta pruning: even winning this piece for free cannot reach alpha.
            if (stand + vv + 200 <= alpha) continue;
            // Losing captures (a dearer piece takes a defended cheaper one, which score_moves
            // found and scored below zero; the table move is never scored so) are skipped.
            if (scores[i] < 0) continue;
        }
        if (check ? !pos_.is_legal_in_check(m, check_mask) : !pos_.is_legal(m, false)) continue;
        ++legal;
        XQ_STAT(++stats_.q_moves);
        make(m, u, pos_.gives_check_fast(m));
        const int v = -qsearch(-beta, -alpha, ply + 1);
        unmake(m, u);
        if (stopped_) return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                alpha = v;
                Frame& f = frames_[ply];
                const Frame& c = frames_[ply + 1];
                f.pv[0] = m;
                std::copy(c.pv, c.pv + c.pv_len, f.pv + 1);
                f.pv_len = c.pv_len + 1;
                if (v >= beta) {
                    XQ_STAT(++stats_.q_cuts, stats_.q_first_cuts += legal == 1);
                    break;
                }
            }
        }
    }
    if (check && legal == 0) return mated_in(ply);
    return best;
}

int Searcher::search(int alpha, int beta, int depth, int ply, bool cut_node) {
    if (depth <= 0) return qsearch(alpha, beta, ply);
    ++nodes_;
    XQ_STAT(++stats_.main_nodes, ++stats_.by_depth[std::min(depth, 15)]);
    if (should_abort()) return 0;
    seldepth_ = std::max(seldepth_, ply);
    Frame& f = frames_[ply];
    f.pv_len = 0;
    const bool pv_node = beta - alpha > 1;
    const bool root = ply == 0;

    if (!root) {
        const int rep = repetition_score(ply);
        if (rep != NO_SCORE) return rep;
        if (pos_.rule50() >= MOVE_LIMIT_PLIES) return draw_score();
        if (ply >= MAX_PLY) return evaluate(pos_);
        // Mate distance pruning.
        alpha = std::max(alpha, mated_in(ply));
        beta = std::min(beta, mate_in(ply + 1));
        if (alpha >= beta) return alpha;
    }

    const bool check = in_check();
    TTEntry tt_copy;
    const TTEntry* tte = tt_.probe(pos_.key(), tt_copy);
    Move tt_move;
    int tt_score = NO_SCORE;
    if (tte) {
        tt_move = Move::from_raw(tte->move);
        tt_score = score_from_tt(tte->score, ply);
        const Bound b = tte->bound();
        if (!pv_node && tte->depth >= depth &&
            ((b == Bound::Exact) || (b == Bound::Lower && tt_score >= beta) ||
             (b == Bound::Upper && tt_score <= alpha))) {
            XQ_STAT(++stats_.tt_cuts);
            return tt_score;
        }
    }

    int eval = 0, raw_eval = 0;
    if (!check) {
        raw_eval = eval = tte ? tte->eval : td_.cached_eval(pos_, psq_[top_]);
        // The table's bound on the real score is a better estimate than the static eval.
        if (tt_score != NO_SCORE && std::abs(tt_score) < MATE_BOUND &&
            ((tte->bound() == Bound::Lower && tt_score > eval) ||
             (tte->bound() == Bound::Upper && tt_score < eval)))
            eval = tt_score;
    }
    f.eval = eval;
    const bool improving = ply >= 2 && !check && eval > frames_[ply - 2].eval;

    if (!pv_node && !check && std::abs(beta) < MATE_BOUND) {
        // Reverse futility: far above beta with little depth left.
        if (depth <= 7 && eval - (85 - 20 * improving) * depth >= beta) {
            XQ_STAT(++stats_.rfp_cuts);
            return eval;
        }

        // Null move, guarded against zugzwang-prone endings (few attacking pieces left).
        const Color us = pos_.side_to_move();
        const int force = 2 * pos_.count(us, ROOK) + pos_.count(us, HORSE) + pos_.count(us, CANNON);
        if (depth >= 3 && eval >= beta && force >= 3 && ply > 0 && frames_[ply - 1].move != NULL_MARK) {
            const int r = 3 + depth / 4 + std::min((eval - beta) / 200, 2);
            UndoInfo u;
            XQ_STAT(++stats_.null_tries);
            make_null(u);
            frames_[ply].move = NULL_MARK;
            frames_[ply + 2].killers[0] = frames_[ply + 2].killers[1] = Move::none();
            const int v = -search(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
            unmake_null(u);
            if (stopped_) return 0;
            if (v >= beta) {
                XQ_STAT(++stats_.null_cuts);
                return v >= MATE_BOUND ? beta : v;
            }
        }
    }

    // Internal iterative reduction: without a table move, searching shallower is cheaper.
    if (!tt_move && depth >= 6 && (pv_node || cut_node)) --depth;

    MoveList list;
    pos_.generate_pseudo(list);
    int scores[MAX_MOVES + SCORE_PAD];
    score_moves(list, scores, tt_move, ply);
    frames_[ply + 2].killers[0] = frames_[ply + 2].killers[1] = Move::none();

    MoveList quiets;  // uninitialised storage (a Move array would be zeroed at every node)
    int best = -INF;
    Move best_move;
    int legal = 0;
    const int old_alpha = alpha;
    UndoInfo u;
    // The pruning of late quiet moves near the leaves that give no check (never when mated
    // scores are in play), for a move that would be legal move number `count`. For a move that
    // certainly gives no check it is decided before the move is made, and even before its
    // legality test (count = legal + 1): the same decision as after the test without the test,
    // make, check test and unmake. The legal-move count then misses the pruned moves, which
    // changes nothing: once the pruning holds it holds for every later quiet move that gives
    // no check (the count, best and alpha only grow), and the count steers nothing else by then
    // (it is past 1, and only such moves are reduced by it).
    // (What does not change in the move loop is worked out once.)
    const bool may_prune = !root && !check;
    const int count_limit = depth <= 5 ? 3 + depth * depth / (improving ? 1 : 2) : INT_MAX;
    const int futile_below = depth <= 6 ? eval + 110 + 95 * depth : INT_MAX;  // prunes when <= alpha
    auto prunes_quiet = [&](int count) {
        return may_prune && best > -MATE_BOUND && (count > count_limit || futile_below <= alpha);
    };
    bool dropped = false;  // drop_late_quiets has run
    for (int i = 0; i < list.size(); ++i) {
        // Once the pruning holds, the quiet moves that give no check leave the list at once
        // instead of being picked one by one and skipped (the others keep the picks' order).
        if (!dropped && prunes_quiet(legal + 1)) {
            dropped = true;
            drop_late_quiets(list, scores, i);
            if (i == list.size()) break;
        }
        const Move m = pick_ahead(list, scores, i);
        const bool capture = pos_.is_capture(m);
        const bool quiet = !capture;
        if (quiet && prunes_quiet(legal + 1) && !pos_.may_give_check(m)) continue;  // what drop_late_quiets left
        if (!pos_.is_legal(m, check)) continue;
        ++legal;
        const bool gives_check = pos_.gives_check_fast(m);
        if (quiet && !gives_check && prunes_quiet(legal)) continue;  // a possible check that is none
        make(m, u, gives_check);
        frames_[ply].move = m;
        frames_[ply + 1].move = Move::none();
        const int ext = gives_check && ply < 2 * root_depth_ + 4 ? 1 : 0;
        XQ_STAT(++stats_.moves, stats_.checks_extended += ext);
        const int new_depth = depth - 1 + ext;
        int v;
        if (legal == 1) {
            v = -search(-beta, -alpha, new_depth, ply + 1, pv_node ? false : !cut_node);
        } else {
            int r = 0;
            if (depth >= 3 && quiet && !gives_check && !check) {
                r = impl_.reductions[std::min(depth, MAX_DEPTH)][std::min(legal, MAX_MOVES - 1)];
                if (pv_node) --r;
                if (cut_node) ++r;
                if (scores[i] >= SCORE_KILLER) --r;
                else r -= scores[i] / 5000;
                if (!improving) ++r;
                r = std::clamp(r, 0, new_depth - 1);
            }
            v = -search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
            XQ_STAT(stats_.reduced += r > 0, stats_.re_searched += r > 0 && v > alpha);
            if (r > 0 && v > alpha) v = -search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            if (pv_node && v > alpha && v < beta) v = -search(-beta, -alpha, new_depth, ply + 1, false);
        }
        unmake(m, u);
        if (stopped_) return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                alpha = v;
                if (pv_node) {
                    const Frame& c = frames_[ply + 1];
                    f.pv[0] = m;
                    std::copy(c.pv, c.pv + c.pv_len, f.pv + 1);
                    f.pv_len = c.pv_len + 1;
                }
                if (v >= beta) {
                    XQ_STAT(++stats_.cut_nodes, stats_.first_move_cuts += legal == 1, stats_.cut_move_sum += legal);
                    if (quiet) update_quiet_stats(m, quiets.begin(), quiets.size(), depth, ply);
                    break;
                }
            }
        }
        if (quiet && quiets.size() < MAX_MOVES) quiets.push(m);
    }
    // No legal move: checkmate or stalemate, both lost in Xiangqi.
    if (legal == 0) return mated_in(ply);
    if (best == -INF) best = alpha;  // every move pruned: fail low
    XQ_STAT(stats_.all_nodes += best <= old_alpha);

    const Bound bound = best >= beta ? Bound::Lower : (best_move && best > old_alpha ? Bound::Exact : Bound::Upper);
    tt_.store(pos_.key(), best_move, score_to_tt(best, ply), raw_eval, depth, bound);
    return best;
}

}  // namespace xq::engine
