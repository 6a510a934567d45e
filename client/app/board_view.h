// Draws a board model: grid, river, palaces and marks (cached), pieces as carved discs,
// the last move, legal targets, check, selection pulse, drag and the move animation.
#pragma once

#include <SFML/Graphics.hpp>

#include <cstdint>
#include <string>

#include "app/theme.h"
#include "core/board_geometry.h"
#include "core/board_model.h"
#include "core/controller.h"

namespace xq::client {

// How long a move glides from its point to the next (seconds).
constexpr float MOVE_ANIMATION_S = 0.2f;

class BoardView {
public:
    bool load_font(const std::string& path, std::string& error);
    const sf::Font& font() const { return font_; }
    void set_theme(int index);
    int theme_index() const { return theme_; }

    // Starts a glide for a move the model has just applied.
    void animate(Move m, Piece piece, Piece captured, float now);
    bool animating(float now) const { return anim_.piece != NO_PIECE && now - anim_.start < MOVE_ANIMATION_S; }
    void stop_animation() { anim_.piece = NO_PIECE; }

    void draw(sf::RenderTarget& target, const BoardGeometry& geo, const Position& pos,
              Move last_move, Square checked_king, const Controller* ctl, float now);

    // The piece the player drags, under the pointer: drawn last in the frame, over the
    // side panel and dialogs too. False when no drag is under way.
    bool draw_drag(sf::RenderTarget& target, const Position& pos, const Controller& ctl);

    // A disc with its character, usable outside the board (captured pieces, banners).
    void draw_piece(sf::RenderTarget& target, Piece p, sf::Vector2f center, float radius,
                    float alpha = 1.f, float glow = 0.f) const;
    // The same disc as one quad from the board's piece atlas once that exists (cheaper to
    // draw every frame); drawn as above before the first board frame.
    void draw_piece_quad(sf::RenderTarget& target, Piece p, sf::Vector2f center, float radius);

private:
    // Atlas slots: 14 pieces, then the target dot, capture ring, selection glow, check glow.
    static constexpr int SLOT_DOT = 14, SLOT_RING = 15, SLOT_GLOW = 16, SLOT_CHECK = 17, ATLAS_SLOTS = 18;
    static float plank_pad(float cell);
    void rebuild_static(const BoardGeometry& geo);
    void rebuild_atlas(float radius);
    void quad(sf::VertexArray& va, int slot, sf::Vector2f center, float scale, float alpha) const;

    struct Anim {
        Move move;
        Piece piece = NO_PIECE;
        Piece captured = NO_PIECE;
        float start = 0;
    };

    sf::Font font_;
    int theme_ = 0;
    Anim anim_;
    // The grid, river, marks and labels change only with size, flip or theme: cached.
    sf::RenderTexture static_;
    bool static_ok_ = false;
    sf::Vector2f static_origin_{-1, -1};
    bool static_flipped_ = false;
    int static_theme_ = -1;
    sf::Vector2u static_size_{};
    // The board with every piece at rest (not selected, not gliding) and the last-move and
    // check marks: redrawn only when one of those changes, copied opaque every frame.
    struct RestKey {
        std::uint64_t position = 0;
        Move last_move;
        Square checked_king = SQ_NONE;
        Square lifted = SQ_NONE;    // the selected piece, drawn on top each frame
        Square arriving = SQ_NONE;  // the gliding piece's target
        int static_version = -1;
        int atlas_version = -1;
        bool operator==(const RestKey&) const = default;
    };
    sf::RenderTexture rest_;
    bool rest_ok_ = false;
    RestKey rest_key_;
    int static_version_ = 0, atlas_version_ = 0;
    // Per-frame vertex buffers, kept to avoid allocating each frame.
    sf::VertexArray rest_va_{sf::Triangles}, top_va_{sf::Triangles}, marks_va_{sf::Triangles}, one_va_{sf::Triangles};
    // Every piece and marker pre-drawn (antialiased) once per size and theme.
    sf::RenderTexture atlas_;
    bool atlas_ok_ = false;
    float atlas_radius_ = -1;
    int atlas_theme_ = -1;
    int slot_ = 0;
};

// The character printed on a piece (UTF-8): 帥仕相俥傌炮兵 for Red, 將士象車馬砲卒 for Black.
const char* piece_glyph(Piece p);

}  // namespace xq::client
