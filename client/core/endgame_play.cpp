#include "core/endgame_play.h"

namespace xq::client {

bool endgame_solved(endgames::Verdict verdict, Color player, Outcome outcome) {
    const Outcome player_wins = player == RED ? Outcome::RedWins : Outcome::BlackWins;
    if (outcome == player_wins) return true;
    return verdict == endgames::Verdict::Draw && outcome == Outcome::Draw;
}

std::string endgame_goal(Lang lang, const endgames::Challenge& c) {
    const std::string side = tr(lang, c.side_to_move == RED ? Str::Red : Str::Black);
    if (c.verdict == endgames::Verdict::Draw) return format(tr(lang, Str::EndgameGoalDraw), {side});
    return format(tr(lang, Str::EndgameGoalWin), {side, std::to_string(c.mate_in)});
}

const std::string& endgame_name(Lang lang, const endgames::Challenge& c) {
    return lang == Lang::Chinese ? c.name_zh : c.name_en;
}

}  // namespace xq::client
