#include "app/board_view.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace xq::client {

const char* piece_glyph(Piece p) {
    static constexpr const char* red[] = {"", "帥", "仕", "相", "傌", "俥", "炮", "兵"};
    static constexpr const char* black[] = {"", "將", "士", "象", "馬", "車", "砲", "卒"};
    const PieceType t = type_of(p);
    if (p == NO_PIECE || t == NO_PIECE_TYPE) return "";
    return color_of(p) == RED ? red[t] : black[t];
}

namespace {

sf::Vector2f vec(PointF p) { return {p.x, p.y}; }

sf::String utf8(std::string_view s) { return sf::String::fromUtf8(s.begin(), s.end()); }

sf::Color with_alpha(sf::Color c, float a) {
    c.a = sf::Uint8(std::clamp(float(c.a) * a, 0.f, 255.f));
    return c;
}

// A straight line of given thickness as two triangles appended to `va`.
void thick_line(sf::VertexArray& va, sf::Vector2f a, sf::Vector2f b, float t, sf::Color c) {
    const sf::Vector2f d = b - a;
    const float len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len <= 0) return;
    const sf::Vector2f n(-d.y / len * t / 2, d.x / len * t / 2);
    const sf::Vector2f q[4] = {a + n, b + n, b - n, a - n};
    for (int i : {0, 1, 2, 0, 2, 3}) va.append(sf::Vertex(q[i], c));
}

// An axis-aligned rectangle, pixel-exact.
void rect(sf::VertexArray& va, float x, float y, float w, float h, sf::Color c) {
    const sf::Vector2f q[4] = {{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}};
    for (int i : {0, 1, 2, 0, 2, 3}) va.append(sf::Vertex(q[i], c));
}

sf::Text centered_text(const sf::Font& font, const sf::String& s, unsigned size, sf::Vector2f at,
                       sf::Color color, sf::Uint32 style = sf::Text::Regular) {
    sf::Text t(s, font, size);
    t.setStyle(style);
    t.setFillColor(color);
    const sf::FloatRect b = t.getLocalBounds();
    t.setOrigin(std::round(b.left + b.width / 2), std::round(b.top + b.height / 2));
    t.setPosition(std::round(at.x), std::round(at.y));
    return t;
}

// The four corner brackets that mark a point (last move from/to).
void corner_marks(sf::VertexArray& va, sf::Vector2f c, float half, float len, float t, sf::Color col) {
    for (int sx : {-1, 1})
        for (int sy : {-1, 1}) {
            const sf::Vector2f corner(c.x + sx * half, c.y + sy * half);
            rect(va, sx < 0 ? corner.x : corner.x - len, sy < 0 ? corner.y : corner.y - t, len, t, col);
            rect(va, sx < 0 ? corner.x : corner.x - t, sy < 0 ? corner.y : corner.y - len, t, len, col);
        }
}

int piece_slot(Piece p) { return (color_of(p) == RED ? 0 : 7) + int(type_of(p)) - 1; }

float ease_out_cubic(float p) {
    const float q = 1 - p;
    return 1 - q * q * q;
}

}  // namespace

float BoardView::plank_pad(float cell) { return std::round(cell * 0.95f); }

bool BoardView::load_font(const std::string& path, std::string& error) {
    if (!font_.loadFromFile(path)) {
        error = "SFML could not load the font " + path;
        return false;
    }
    return true;
}

void BoardView::set_theme(int index) { theme_ = std::clamp(index, 0, THEME_COUNT - 1); }

void BoardView::animate(Move m, Piece piece, Piece captured, float now) {
    anim_ = {m, piece, captured, now};
}

void BoardView::rebuild_static(const BoardGeometry& geo) {
    const Theme& th = theme(theme_);
    const float cell = geo.cell;
    const float t = std::max(1.f, std::round(cell / 40));
    sf::VertexArray va(sf::Triangles);

    // The board plank with a darker edge and a gentle gradient.
    const float pad = plank_pad(cell);
    const float bx = geo.left - pad, by = geo.top - pad, bw = 8 * cell + 2 * pad, bh = 9 * cell + 2 * pad;
    rect(va, bx - 4, by - 4, bw + 8, bh + 8, th.board_edge);
    {
        const sf::Vector2f q[4] = {{bx, by}, {bx + bw, by}, {bx + bw, by + bh}, {bx, by + bh}};
        const sf::Color cs[4] = {th.board_face, th.board_face, th.board_face2, th.board_face2};
        for (int i : {0, 1, 2, 0, 2, 3}) va.append(sf::Vertex(q[i], cs[i]));
    }
    // Outer frame a little outside the grid, drawn thicker as on real boards.
    const float fo = std::round(cell * 0.12f), ft = t * 2;
    rect(va, geo.left - fo - ft, geo.top - fo - ft, 8 * cell + 2 * (fo + ft), ft, th.line);
    rect(va, geo.left - fo - ft, geo.top + 9 * cell + fo, 8 * cell + 2 * (fo + ft), ft, th.line);
    rect(va, geo.left - fo - ft, geo.top - fo - ft, ft, 9 * cell + 2 * (fo + ft), th.line);
    rect(va, geo.left + 8 * cell + fo, geo.top - fo - ft, ft, 9 * cell + 2 * (fo + ft), th.line);

    const float h = std::floor(t / 2);
    for (int r = 0; r < 10; ++r) rect(va, geo.left - h, geo.top + r * cell - h, 8 * cell + t, t, th.line);
    for (int c = 0; c < 9; ++c) {
        const float x = geo.left + c * cell - h;
        if (c == 0 || c == 8) {
            rect(va, x, geo.top - h, t, 9 * cell + t, th.line);
        } else {  // interrupted by the river
            rect(va, x, geo.top - h, t, 4 * cell + t, th.line);
            rect(va, x, geo.top + 5 * cell - h, t, 4 * cell + t, th.line);
        }
    }
    // Palace diagonals.
    for (int top : {0, 7}) {
        thick_line(va, vec(geo.at_grid(3, float(top))), vec(geo.at_grid(5, float(top + 2))), t, th.line);
        thick_line(va, vec(geo.at_grid(5, float(top))), vec(geo.at_grid(3, float(top + 2))), t, th.line);
    }
    // Position marks at the cannon and soldier points (symmetric, so flip does not matter).
    const float gap = std::max(2.f, cell * 0.07f), len = cell * 0.17f;
    auto mark = [&](int col, int row) {
        const sf::Vector2f c = vec(geo.at_grid(float(col), float(row)));
        for (int sx : {-1, 1}) {
            if ((col == 0 && sx < 0) || (col == 8 && sx > 0)) continue;
            for (int sy : {-1, 1}) {
                const float x = c.x + sx * gap, y = c.y + sy * gap;
                rect(va, sx < 0 ? x - len : x, sy < 0 ? y - t : y, len, t, th.line);
                rect(va, sx < 0 ? x - t : x, sy < 0 ? y - len : y, t, len, th.line);
            }
        }
    };
    for (int row : {2, 7})
        for (int col : {1, 7}) mark(col, row);
    for (int row : {3, 6})
        for (int col = 0; col < 9; col += 2) mark(col, row);

    static_.clear(sf::Color::Transparent);
    sf::RenderStates shift;
    shift.transform.translate(-static_origin_.x, -static_origin_.y);
    static_.draw(va, shift);

    // River words and file numbers.
    const unsigned river_size = unsigned(cell * 0.58f);
    const sf::Color ink = with_alpha(th.river_ink, 0.85f);
    static_.draw(centered_text(font_, utf8("楚"),
                               river_size, vec(geo.at_grid(1.3f, 4.5f)), ink), shift);
    static_.draw(centered_text(font_, utf8("河"),
                               river_size, vec(geo.at_grid(2.5f, 4.5f)), ink), shift);
    static_.draw(centered_text(font_, utf8("汉"),
                               river_size, vec(geo.at_grid(5.5f, 4.5f)), ink), shift);
    static_.draw(centered_text(font_, utf8("界"),
                               river_size, vec(geo.at_grid(6.7f, 4.5f)), ink), shift);

    // Files are counted from each player's own right: Red 一..九, Black 1..9.
    static constexpr const char* cn[] = {"一", "二", "三", "四", "五", "六", "七", "八", "九"};
    const unsigned num_size = unsigned(std::max(9.f, cell * 0.26f));
    const sf::Color num_ink = with_alpha(th.line, 0.9f);
    for (int col = 0; col < 9; ++col) {
        // The bottom player's file number at this column, then the top player's.
        const int bottom_file = 9 - col;  // counted from the bottom player's right
        const int top_file = col + 1;     // the top player's right is the screen's left
        const bool bottom_red = !geo.flipped;
        const std::string b = bottom_red ? cn[bottom_file - 1] : std::to_string(bottom_file);
        const std::string tp = bottom_red ? std::to_string(top_file) : cn[top_file - 1];
        const float off = pad * 0.72f;
        static_.draw(centered_text(font_, utf8(b), num_size,
                                   {geo.left + col * cell, geo.top + 9 * cell + off}, num_ink), shift);
        static_.draw(centered_text(font_, utf8(tp), num_size,
                                   {geo.left + col * cell, geo.top - off}, num_ink), shift);
    }
    static_.display();
}

void BoardView::draw_piece(sf::RenderTarget& target, Piece p, sf::Vector2f c, float r, float alpha,
                           float glow) const {
    if (p == NO_PIECE) return;
    const Theme& th = theme(theme_);
    const bool red = color_of(p) == RED;
    const sf::Color face = red ? th.red_face : th.black_face;
    const sf::Color rim = red ? th.red_rim : th.black_rim;
    const sf::Color ink = red ? th.red_ink : th.black_ink;
    const std::size_t points = r > 24 ? 64 : 40;

    if (glow > 0) {
        sf::CircleShape g(r * 1.18f, points);
        g.setOrigin(r * 1.18f, r * 1.18f);
        g.setPosition(c);
        g.setFillColor(with_alpha(th.select, 0.55f * glow * alpha));
        target.draw(g);
    }
    sf::CircleShape s(r, points);
    s.setOrigin(r, r);
    s.setPosition(c.x + r * 0.07f, c.y + r * 0.12f);
    s.setFillColor(with_alpha(th.shadow, alpha));
    target.draw(s);
    s.setPosition(c);
    s.setFillColor(with_alpha(rim, alpha));
    target.draw(s);
    const float fr = r * 0.88f;
    sf::CircleShape f(fr, points);
    f.setOrigin(fr, fr - r * 0.03f);
    f.setPosition(c);
    f.setFillColor(with_alpha(face, alpha));
    target.draw(f);
    const float ir = r * 0.72f;
    sf::CircleShape ring(ir, points);
    ring.setOrigin(ir, ir);
    ring.setPosition(c);
    ring.setFillColor(sf::Color::Transparent);
    ring.setOutlineThickness(-std::max(1.f, r * 0.05f));
    ring.setOutlineColor(with_alpha(ink, 0.75f * alpha));
    target.draw(ring);
    target.draw(centered_text(font_, utf8(piece_glyph(p)), unsigned(r * 1.02f),
                              {c.x, c.y - r * 0.02f}, with_alpha(ink, alpha), sf::Text::Bold));
}

void BoardView::draw_piece_quad(sf::RenderTarget& target, Piece p, sf::Vector2f c, float r) {
    if (p == NO_PIECE) return;
    if (!atlas_ok_ || atlas_theme_ != theme_ || atlas_radius_ <= 0) return draw_piece(target, p, c, r);
    one_va_.clear();
    quad(one_va_, piece_slot(p), c, r / atlas_radius_, 1.f);
    sf::RenderStates st(&atlas_.getTexture());
    st.blendMode = sf::BlendMode(sf::BlendMode::One, sf::BlendMode::OneMinusSrcAlpha);
    target.draw(one_va_, st);
}

void BoardView::rebuild_atlas(float r) {
    const Theme& th = theme(theme_);
    slot_ = int(std::ceil(r * 2.8f)) + 2;
    sf::ContextSettings aa;
    aa.antialiasingLevel = 4;
    atlas_ok_ = atlas_.create(unsigned(slot_ * ATLAS_SLOTS), unsigned(slot_), aa);
    if (!atlas_ok_) return;
    atlas_.clear(sf::Color::Transparent);
    auto center = [&](int slot) { return sf::Vector2f(float(slot * slot_) + float(slot_) / 2, float(slot_) / 2); };
    for (int c = 0; c < 2; ++c)
        for (int t = KING; t <= PAWN; ++t)
            draw_piece(atlas_, make_piece(Color(c), PieceType(t)), center(c * 7 + t - 1), r);
    auto disc = [&](int slot, float radius, sf::Color col, float outline) {
        sf::CircleShape d(radius, 64);
        d.setOrigin(radius, radius);
        d.setPosition(center(slot));
        if (outline > 0) {
            d.setFillColor(sf::Color::Transparent);
            d.setOutlineThickness(outline);
            d.setOutlineColor(col);
        } else {
            d.setFillColor(col);
        }
        atlas_.draw(d);
    };
    const float cell = r / 0.45f;
    disc(SLOT_DOT, std::max(3.f, cell * 0.11f), th.target, 0);
    disc(SLOT_RING, r * 1.04f, th.target, std::max(2.f, cell * 0.06f));
    disc(SLOT_GLOW, r * 1.18f, with_alpha(th.select, 0.6f), 0);
    for (float k = 1.35f; k > 0.9f; k -= 0.1f) disc(SLOT_CHECK, r * k, with_alpha(th.check, 0.22f), 0);
    atlas_.display();
    atlas_.setSmooth(true);
    atlas_radius_ = r;
    atlas_theme_ = theme_;
}

void BoardView::quad(sf::VertexArray& va, int slot, sf::Vector2f c, float scale, float alpha) const {
    // Pieces and dots use only the middle of their slot: fewer pixels to fill per frame.
    const float extent = slot < SLOT_RING ? std::min(float(slot_), std::ceil(atlas_radius_ * 2.4f) + 2) : float(slot_);
    const float half = extent / 2 * scale;
    const float S = extent, u = float(slot * slot_) + (float(slot_) - extent) / 2, v = (float(slot_) - extent) / 2;
    // The atlas holds premultiplied colour, so fading scales all four channels.
    const sf::Uint8 k = sf::Uint8(std::clamp(alpha, 0.f, 1.f) * 255.f);
    const sf::Color col(k, k, k, k);
    const sf::Vector2f p[4] = {{c.x - half, c.y - half}, {c.x + half, c.y - half}, {c.x + half, c.y + half}, {c.x - half, c.y + half}};
    const sf::Vector2f tc[4] = {{u, v}, {u + S, v}, {u + S, v + S}, {u, v + S}};
    for (int i : {0, 1, 2, 0, 2, 3}) va.append(sf::Vertex(p[i], col, tc[i]));
}

void BoardView::draw(sf::RenderTarget& target, const BoardGeometry& geo, const Position& pos,
                     Move last_move, Square checked_king, const Controller* ctl, float now) {
    const Theme& th = theme(theme_);
    const float cell = geo.cell, r = cell * 0.45f;
    const float pad = plank_pad(cell);
    const sf::Vector2f origin(geo.left - pad - 4, geo.top - pad - 4);
    const sf::Vector2u size(unsigned(8 * cell + 2 * pad + 8), unsigned(9 * cell + 2 * pad + 8));
    if (!static_ok_ || static_size_ != size || static_origin_ != origin || static_flipped_ != geo.flipped ||
        static_theme_ != theme_) {
        if (static_size_ != size) {
            sf::ContextSettings aa;
            aa.antialiasingLevel = 4;  // palace diagonals; drawn once, so the cost is paid once
            static_ok_ = static_.create(size.x, size.y, aa);
        }
        static_size_ = size;
        static_origin_ = origin;
        static_flipped_ = geo.flipped;
        static_theme_ = theme_;
        if (static_ok_) rebuild_static(geo);
        ++static_version_;
    }
    if (!atlas_ok_ || atlas_radius_ != r || atlas_theme_ != theme_) {
        rebuild_atlas(r);
        ++atlas_version_;
    }

    const bool anim_on = animating(now);
    const float p = anim_on ? ease_out_cubic((now - anim_.start) / MOVE_ANIMATION_S) : 1.f;
    const Square sel = ctl ? ctl->selected() : SQ_NONE;
    const bool dragging = ctl && ctl->dragging() && sel != SQ_NONE;
    // The piece that moved last stays off the resting layer: its glide starts and ends
    // without redrawing the layer (a new position redraws it anyway).
    const Square arriving = anim_on ? anim_.move.to() : last_move ? last_move.to() : SQ_NONE;

    // The resting layer: redrawn only when the position, marks, selection or glide change.
    const RestKey key{pos.key(), last_move, checked_king, sel, arriving, static_version_, atlas_version_};
    if (static_ok_ && atlas_ok_ && (!rest_ok_ || rest_.getSize() != size || !(key == rest_key_))) {
        if (!rest_ok_ || rest_.getSize() != size) rest_ok_ = rest_.create(size.x, size.y);
        if (rest_ok_) {
            sf::RenderStates shift;
            shift.transform.translate(-origin.x, -origin.y);
            rest_.clear(sf::Color::Transparent);
            rest_.draw(sf::Sprite(static_.getTexture()), sf::RenderStates(sf::BlendNone));
            marks_va_.clear();
            if (last_move) {
                const float t = std::max(2.f, std::round(cell / 22));
                for (Square sq : {last_move.from(), last_move.to()})
                    corner_marks(marks_va_, vec(geo.center(sq)), cell * 0.49f, cell * 0.16f, t, th.last_move);
            }
            rest_.draw(marks_va_, shift);
            rest_va_.clear();
            if (checked_king != SQ_NONE && checked_king != arriving)
                quad(rest_va_, SLOT_CHECK, vec(geo.center(checked_king)), 1.f, 1.f);
            for (int i = 0; i < SQ_NB; ++i) {
                const Square sq = Square(i);
                const Piece pc = pos.piece_on(sq);
                if (pc == NO_PIECE || sq == arriving || sq == sel) continue;
                quad(rest_va_, piece_slot(pc), vec(geo.center(sq)), 1.f, 1.f);
            }
            sf::RenderStates st(&atlas_.getTexture());
            st.transform = shift.transform;
            st.blendMode = sf::BlendMode(sf::BlendMode::One, sf::BlendMode::OneMinusSrcAlpha);
            rest_.draw(rest_va_, st);
            rest_.display();
            rest_key_ = key;
        }
    }
    if (rest_ok_ && rest_key_ == key) {
        sf::Sprite board(rest_.getTexture());
        board.setPosition(origin);
        target.draw(board, sf::RenderStates(sf::BlendNone));  // opaque: a copy, not a blend
    } else {
        // No resting layer (texture creation failed): draw the board, marks and pieces directly.
        if (static_ok_) {
            sf::Sprite board(static_.getTexture());
            board.setPosition(origin);
            target.draw(board, sf::RenderStates(sf::BlendNone));
        }
        marks_va_.clear();
        if (last_move) {
            const float t = std::max(2.f, std::round(cell / 22));
            for (Square sq : {last_move.from(), last_move.to()})
                corner_marks(marks_va_, vec(geo.center(sq)), cell * 0.49f, cell * 0.16f, t, th.last_move);
        }
        target.draw(marks_va_);
        rest_va_.clear();
        for (int i = 0; i < SQ_NB; ++i) {
            const Square sq = Square(i);
            const Piece pc = pos.piece_on(sq);
            if (pc == NO_PIECE || sq == arriving || sq == sel) continue;
            quad(rest_va_, piece_slot(pc), vec(geo.center(sq)), 1.f, 1.f);
        }
        if (atlas_ok_) {
            sf::RenderStates st(&atlas_.getTexture());
            st.blendMode = sf::BlendMode(sf::BlendMode::One, sf::BlendMode::OneMinusSrcAlpha);
            target.draw(rest_va_, st);
        }
    }

    // What moves this frame: the selected piece, the glide, legal targets, the dragged piece.
    top_va_.clear();
    if (!anim_on && arriving != SQ_NONE && arriving != sel && pos.piece_on(arriving) != NO_PIECE) {
        if (checked_king == arriving) quad(top_va_, SLOT_CHECK, vec(geo.center(arriving)), 1.f, 1.f);
        quad(top_va_, piece_slot(pos.piece_on(arriving)), vec(geo.center(arriving)), 1.f, 1.f);
    }
    if (sel != SQ_NONE && pos.piece_on(sel) != NO_PIECE) {
        const sf::Vector2f c = vec(geo.center(sel));
        const Piece pc = pos.piece_on(sel);
        if (dragging) {
            quad(top_va_, piece_slot(pc), c, 1.f, 0.35f);
        } else {
            const float pulse = 0.5f + 0.5f * std::sin(now * 2 * std::numbers::pi_v<float> * 1.1f);
            quad(top_va_, SLOT_GLOW, c, 1.f + 0.05f * pulse, 0.5f + 0.5f * pulse);
            quad(top_va_, piece_slot(pc), c, 1.03f + 0.035f * pulse, 1.f);
        }
    }
    if (anim_on) {
        const sf::Vector2f a = vec(geo.center(anim_.move.from())), b = vec(geo.center(anim_.move.to()));
        if (anim_.captured != NO_PIECE) quad(top_va_, piece_slot(anim_.captured), b, 1.f, 1.f - p);
        quad(top_va_, piece_slot(anim_.piece), a + (b - a) * p, 1.f + 0.08f * std::sin(p * std::numbers::pi_v<float>), 1.f);
    }
    if (ctl && sel != SQ_NONE)
        for (Move m : ctl->targets())
            quad(top_va_, pos.empty(m.to()) ? SLOT_DOT : SLOT_RING, vec(geo.center(m.to())), 1.f, 1.f);
    // The dragged piece itself is drawn by draw_drag, after the panels.
    if (atlas_ok_ && top_va_.getVertexCount() > 0) {
        sf::RenderStates st(&atlas_.getTexture());
        st.blendMode = sf::BlendMode(sf::BlendMode::One, sf::BlendMode::OneMinusSrcAlpha);
        target.draw(top_va_, st);
    }
}

bool BoardView::draw_drag(sf::RenderTarget& target, const Position& pos, const Controller& ctl) {
    const Square sel = ctl.selected();
    if (!ctl.dragging() || sel == SQ_NONE || pos.piece_on(sel) == NO_PIECE || !atlas_ok_) return false;
    const PointF d = ctl.drag_point();
    one_va_.clear();
    quad(one_va_, SLOT_GLOW, {d.x, d.y}, 1.12f, 0.8f);
    quad(one_va_, piece_slot(pos.piece_on(sel)), {d.x, d.y}, 1.12f, 1.f);
    sf::RenderStates st(&atlas_.getTexture());
    st.blendMode = sf::BlendMode(sf::BlendMode::One, sf::BlendMode::OneMinusSrcAlpha);
    target.draw(one_va_, st);
    return true;
}

}  // namespace xq::client
