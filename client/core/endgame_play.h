// Endgame challenges in the client: who plays which side, what counts as solved, and the
// goal in words. The collection itself is common/endgames.
#pragma once

#include <string>

#include "core/strings.h"
#include "endgames/challenge_collection.h"
#include "xiangqi/game.h"

namespace xq::client {

// Whether a finished game solved the challenge for the player of `player`: a win verdict needs
// the player's win, a draw verdict a draw or better.
bool endgame_solved(endgames::Verdict verdict, Color player, Outcome outcome);

// "Red to move and win: mate in at most 7" / "红先胜：7步内将死", or the draw goal.
std::string endgame_goal(Lang lang, const endgames::Challenge& c);

// The challenge's name in `lang`.
const std::string& endgame_name(Lang lang, const endgames::Challenge& c);

}  // namespace xq::client
