// TournamentEvent's look-ups and the board-result conversions.
#include "server/lobby/tournament_event.h"

namespace xq::server {

namespace tn = tournament;
using proto::BoardResult;

int TournamentEvent::index_of(const std::string& name) const {
    for (std::size_t i = 0; i < view.entrants.size(); ++i)
        if (view.entrants[i].name == name) return static_cast<int>(i);
    return -1;
}

tn::Outcome to_outcome(BoardResult r) {
    switch (r) {
    case BoardResult::RedWin: return tn::Outcome::RedWin;
    case BoardResult::BlackWin: return tn::Outcome::BlackWin;
    case BoardResult::RedForfeit: return tn::Outcome::RedForfeit;
    case BoardResult::BlackForfeit: return tn::Outcome::BlackForfeit;
    case BoardResult::DoubleForfeit: return tn::Outcome::DoubleForfeit;
    case BoardResult::Bye: return tn::Outcome::Bye;
    default: return tn::Outcome::Draw;
    }
}

BoardResult to_board_result(tn::Outcome o) {
    switch (o) {
    case tn::Outcome::RedWin: return BoardResult::RedWin;
    case tn::Outcome::BlackWin: return BoardResult::BlackWin;
    case tn::Outcome::RedForfeit: return BoardResult::RedForfeit;
    case tn::Outcome::BlackForfeit: return BoardResult::BlackForfeit;
    case tn::Outcome::DoubleForfeit: return BoardResult::DoubleForfeit;
    case tn::Outcome::Bye: return BoardResult::Bye;
    case tn::Outcome::Draw: return BoardResult::Draw;
    }
    return BoardResult::Draw;  // not reached: every outcome is listed above
}

}  // namespace xq::server
