// The opening explorer panel (Review, and the table's spectators): the moves played from the
// shown position in the server's archive and the AI's opening book, with their counts and a
// won / drawn / lost bar each; a click on a move hands it back to be played on the board.
#pragma once

#include <optional>
#include <vector>

#include "core/board_geometry.h"
#include "core/client_state.h"
#include "core/strings.h"

namespace xq::client {

class ExplorerPanel {
public:
    struct View {
        Lang lang = Lang::Chinese;
        MoveNotation notation = MoveNotation::Chinese;
        const Position* pos = nullptr;          // the shown position
        const ExplorerState* state = nullptr;   // the session's explorer answer
        bool connected = false;
        bool clickable = false;                 // a click on a move plays it (Review)
    };
    struct Answer {
        Move play = Move::none();  // a move was clicked
        bool ask = false;          // the shown position has no answer yet: ask for it
    };

    // Draws the panel into the current ImGui window.
    Answer ui(const View& v);
    // The panel was not drawn this frame.
    void hidden() { rows_.clear(); }
    // Where move `i` of the table was drawn (window coordinates), for scripts and a real mouse.
    std::optional<PointF> row_point(std::size_t i) const;
    std::size_t rows_shown() const { return rows_.size(); }

private:
    std::vector<PointF> rows_;
};

}  // namespace xq::client
