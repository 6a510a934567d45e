// Pixel <-> point mapping for the board, flipped or not. Pure arithmetic, no SFML, so the
// controller and its tests use exactly what the view draws.
#pragma once

#include "xiangqi/types.h"

namespace xq::client {

struct PointF {
    float x = 0, y = 0;
};

struct BoardGeometry {
    // Lines span 8 x 9 cells; one cell of margin on each side holds labels and disc overhang.
    static constexpr float CELLS_W = 10.f;
    static constexpr float CELLS_H = 11.f;

    float left = 0, top = 0;  // pixel position of the top-left grid point
    float cell = 1;           // distance between neighbouring points
    bool flipped = false;     // Black at the bottom

    // Largest board that fits the rectangle, centred in it.
    static BoardGeometry fit(float x, float y, float w, float h, bool flipped);

    float width() const { return cell * CELLS_W; }
    float height() const { return cell * CELLS_H; }
    // Visual row/column of a square (0,0 = top-left as displayed).
    int column(Square s) const { return flipped ? 8 - file_of(s) : file_of(s); }
    int row(Square s) const { return flipped ? rank_of(s) : 9 - rank_of(s); }
    PointF center(Square s) const { return {left + column(s) * cell, top + row(s) * cell}; }
    PointF at_grid(float col, float row) const { return {left + col * cell, top + row * cell}; }
    // The point whose disc contains (x, y): within 0.5 cell of its centre; SQ_NONE otherwise.
    Square square_at(float x, float y) const;
};

}  // namespace xq::client
