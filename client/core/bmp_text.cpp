#include "core/bmp_text.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <utility>

namespace xq::client {

namespace {

// The emoji players type most in a game chat, by their common short names.
constexpr std::array<std::pair<char32_t, std::string_view>, 38> NAMES{{
    {0x1F389, ":tada:"},      {0x1F375, ":tea:"},         {0x1F3C6, ":trophy:"},
    {0x1F44B, ":wave:"},      {0x1F44C, ":ok_hand:"},     {0x1F44D, ":+1:"},
    {0x1F44E, ":-1:"},        {0x1F44F, ":clap:"},        {0x1F4AA, ":muscle:"},
    {0x1F4AF, ":100:"},       {0x1F525, ":fire:"},        {0x1F600, ":grinning:"},
    {0x1F601, ":grin:"},      {0x1F602, ":joy:"},         {0x1F603, ":smiley:"},
    {0x1F604, ":smile:"},     {0x1F605, ":sweat_smile:"}, {0x1F606, ":laughing:"},
    {0x1F609, ":wink:"},      {0x1F60A, ":blush:"},       {0x1F60D, ":heart_eyes:"},
    {0x1F60E, ":sunglasses:"}, {0x1F610, ":neutral_face:"}, {0x1F61B, ":stuck_out_tongue:"},
    {0x1F621, ":rage:"},      {0x1F622, ":cry:"},         {0x1F62D, ":sob:"},
    {0x1F62E, ":open_mouth:"}, {0x1F631, ":scream:"},     {0x1F634, ":sleeping:"},
    {0x1F641, ":slightly_frowning_face:"}, {0x1F642, ":slightly_smiling_face:"}, {0x1F64F, ":pray:"},
    {0x1F914, ":thinking:"},  {0x1F91D, ":handshake:"},   {0x1F923, ":rofl:"},
    {0x1F970, ":smiling_face_with_hearts:"}, {0x1F973, ":partying_face:"},
}};

// Decodes one code point at s[i]; false (and one byte consumed) for a malformed sequence.
bool decode(std::string_view s, std::size_t& i, char32_t& cp) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    int len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + std::size_t(len) > s.size()) {
        ++i;
        return false;
    }
    cp = len == 1 ? b0 : len == 2 ? b0 & 0x1F : len == 3 ? b0 & 0x0F : b0 & 0x07;
    for (int k = 1; k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + std::size_t(k)]);
        if ((b >> 6) != 0x2) {
            ++i;
            return false;
        }
        cp = (cp << 6) | (b & 0x3F);
    }
    static constexpr char32_t MIN[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < MIN[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        ++i;
        return false;
    }
    i += std::size_t(len);
    return true;
}

bool regional(char32_t cp) { return cp >= 0x1F1E6 && cp <= 0x1F1FF; }

}  // namespace

std::string bmp_text(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const std::size_t at = i;
        char32_t cp = 0;
        if (!decode(s, i, cp)) {
            out += '?';
            continue;
        }
        // Joiners and emoji/text variation selectors only glue emoji together.
        if (cp == 0x200D || cp == 0xFE0E || cp == 0xFE0F) continue;
        if (cp <= 0xFFFF) {
            out.append(s.substr(at, i - at));
            continue;
        }
        if (cp >= 0x1F3FB && cp <= 0x1F3FF) continue;  // skin tones
        if (cp >= 0xE0000 && cp <= 0xE007F) continue;  // tags (subdivision flags)
        if (regional(cp)) {
            std::size_t j = i;
            char32_t next = 0;
            if (j < s.size() && decode(s, j, next) && regional(next)) {
                out += ":flag-";
                out += char('a' + (cp - 0x1F1E6));
                out += char('a' + (next - 0x1F1E6));
                out += ':';
                i = j;
                continue;
            }
        }
        const auto it = std::find_if(NAMES.begin(), NAMES.end(), [cp](const auto& n) { return n.first == cp; });
        if (it != NAMES.end()) {
            out += it->second;
            continue;
        }
        char buf[16];
        std::snprintf(buf, sizeof buf, "[U+%X]", static_cast<unsigned>(cp));
        out += buf;
    }
    return out;
}

}  // namespace xq::client
