// The review screen's analysis panels: the opening's name and the book moves of the shown
// position, and the server's whole-game analysis (evaluation graph, marks, per-player summary,
// the best move as an arrow on the board).
#pragma once

#include <SFML/Graphics/RenderTarget.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "book/game_analysis.h"
#include "core/analysis_state.h"
#include "core/board_geometry.h"
#include "core/client_state.h"
#include "core/strings.h"

namespace xq::client {

class AnalysisPanel {
public:
    enum class Ask { Nothing, Analyse, Cancel };
    struct Answer {
        int jump_to = -1;  // a point of the graph was clicked: show this ply
        Ask ask = Ask::Nothing;
    };
    struct View {
        Lang lang = Lang::Chinese;
        MoveNotation notation = MoveNotation::Chinese;
        const Position* start = nullptr;
        const std::vector<MoveEntry>* moves = nullptr;
        int ply = 0;
        std::int64_t game_id = 0;  // the archived game shown (0: not from the archive)
        bool analysed = false;     // the analysis state is of this game (of_game)
        const AnalysisState* analysis = nullptr;
        bool connected = false;
    };

    // The opening's name (of the moves up to the shown position), one line.
    void ui_opening(const View& v);
    // The book moves of the shown position and the analysis, into the current ImGui window.
    Answer ui(const View& v);
    // The panel was not drawn this frame (its tab is not selected): nothing to locate.
    void hidden();
    static const char* tab_label(Lang lang);

    // Whether `a` is (or will be) the analysis of this game: an archived one by its id,
    // another (game_id 0) by its start and moves.
    static bool of_game(const AnalysisState& a, std::int64_t game_id, const Position& start,
                        const std::vector<MoveEntry>& moves);
    // The analysed best move of the shown position, or Move::none() when there is none.
    static Move best_move(const AnalysisState& a, bool of_shown_game, int ply);
    static void draw_arrow(sf::RenderTarget& target, const BoardGeometry& geo, Move m);
    // Every text the panels may show (for the font's glyphs).
    static std::string analysis_text();

    // What the last drawn frame showed, for scripts (and a real mouse, through `locate`):
    // the Analyse button's centre, a ply's point on the graph (window coordinates), the
    // mark of the move played at position `ply` and each side's summary.
    std::optional<PointF> analyse_button() const { return analyse_button_; }
    std::optional<PointF> graph_point(int ply) const;
    book::Mark mark_of_move(int ply) const;
    std::optional<book::PlayerSummary> summary(Color side) const;

private:
    std::optional<PointF> analyse_button_;
    std::vector<PointF> graph_points_;     // one per analysed position
    std::vector<book::PlyEval> plies_;     // the shown analysis (empty: none shown)
    std::array<book::PlayerSummary, COLOR_NB> summary_{};
};

}  // namespace xq::client
