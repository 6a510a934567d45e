#include "core/board_geometry.h"

#include <algorithm>
#include <cmath>

namespace xq::client {

BoardGeometry BoardGeometry::fit(float x, float y, float w, float h, bool flipped) {
    BoardGeometry g;
    // Whole pixels per cell keep the grid lines crisp at every window size.
    g.cell = std::max(4.f, std::floor(std::min(w / CELLS_W, h / CELLS_H)));
    g.left = std::floor(x + (w - g.width()) / 2 + g.cell);
    g.top = std::floor(y + (h - g.height()) / 2 + g.cell);
    g.flipped = flipped;
    return g;
}

Square BoardGeometry::square_at(float x, float y) const {
    const float col = (x - left) / cell, row = (y - top) / cell;
    const int c = int(std::lround(col)), r = int(std::lround(row));
    if (c < 0 || c > 8 || r < 0 || r > 9) return SQ_NONE;
    const float dx = col - float(c), dy = row - float(r);
    if (dx * dx + dy * dy > 0.25f) return SQ_NONE;
    const int file = flipped ? 8 - c : c;
    const int rank = flipped ? r : 9 - r;
    return make_square(file, rank);
}

}  // namespace xq::client
