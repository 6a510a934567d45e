// Board and piece colour schemes. Two are built in; the player switches between them.
#pragma once

#include <SFML/Graphics/Color.hpp>

namespace xq::client {

struct Theme {
    sf::Color window_bg;
    sf::Color board_face, board_face2;  // a gentle vertical gradient
    sf::Color board_edge;
    sf::Color line;
    sf::Color river_ink;
    sf::Color red_face, red_rim, red_ink;
    sf::Color black_face, black_rim, black_ink;
    sf::Color shadow;
    sf::Color last_move;
    sf::Color target;
    sf::Color check;
    sf::Color select;
    sf::Color plate, plate_active, plate_text;
};

constexpr int THEME_COUNT = 2;

inline const Theme& theme(int index) {
    static const Theme themes[THEME_COUNT] = {
        // Wood: a light maple board with ivory pieces carved in red and black.
        {{46, 38, 34}, {233, 196, 140}, {214, 172, 112}, {120, 72, 36}, {92, 52, 24}, {120, 62, 30},
         {246, 231, 200}, {168, 112, 60}, {178, 24, 24},
         {246, 231, 200}, {168, 112, 60}, {30, 30, 30},
         {0, 0, 0, 80}, {40, 130, 230}, {30, 150, 60, 210}, {230, 30, 30}, {255, 215, 0},
         {70, 58, 50}, {122, 84, 44}, {245, 235, 220}},
        // Jade: a cool green-grey board; Red on porcelain, Black on dark jade.
        {{24, 36, 40}, {200, 222, 206}, {170, 198, 182}, {60, 96, 84}, {40, 78, 66}, {50, 92, 80},
         {252, 246, 240}, {120, 140, 136}, {196, 30, 40},
         {44, 84, 72}, {20, 44, 38}, {232, 244, 236},
         {0, 0, 0, 90}, {230, 120, 20}, {200, 90, 20, 220}, {240, 40, 40}, {250, 240, 120},
         {40, 60, 64}, {48, 110, 96}, {230, 242, 236}},
    };
    return themes[index < 0 || index >= THEME_COUNT ? 0 : index];
}

}  // namespace xq::client
