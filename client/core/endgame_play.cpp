#include "core/endgame_play.h"

#include "xiangqi/position.h"

namespace xq::client {

Color endgame_side(const endgames::Challenge& c) {
    Position pos;
    // The collection's FENs are checked when it is read; a refused one leaves the start.
    pos.set_fen(c.fen);
    return pos.side_to_move();
}

bool endgame_solved(endgames::Verdict verdict, Color player, Outcome outcome) {
    const Outcome player_wins = player == RED ? Outcome::RedWins : Outcome::BlackWins;
    if (outcome == player_wins) return true;
    return verdict == endgames::Verdict::Draw && outcome == Outcome::Draw;
}

std::string endgame_goal(Lang lang, const endgames::Challenge& c) {
    const std::string side = tr(lang, endgame_side(c) == RED ? Str::Red : Str::Black);
    if (c.verdict == endgames::Verdict::Draw) return format(tr(lang, Str::EndgameGoalDraw), {side});
    return format(tr(lang, Str::EndgameGoalWin), {side, std::to_string(c.mate_in)});
}

const std::string& endgame_name(Lang lang, const endgames::Challenge& c) {
    return lang == Lang::Chinese ? c.name_zh : c.name_en;
}

}  // namespace xq::client
