#include "app/font_finder.h"

#include <fontconfig/fontconfig.h>

#include <initializer_list>

namespace xq::client {

namespace {

// Every character the board itself needs; a font missing any of them is not used.
constexpr const char* REQUIRED = "帥仕相俥傌炮兵將士象車馬砲卒楚河汉界";

// Symbols players type in chat that the CJK font may lack: smiley, suits, check marks, star,
// chess piece, arrows.
constexpr const char* SYMBOLS = "☺♥♠✓✔★☆♟←→↑↓";

bool covers(FcCharSet* cs, const char* required) {
    const auto* p = reinterpret_cast<const FcChar8*>(required);
    int len = 0;
    for (const char* c = required; *c; ++c) ++len;
    while (len > 0) {
        FcChar32 ch = 0;
        const int n = FcUtf8ToUcs4(p, &ch, len);
        if (n <= 0) return false;
        if (!FcCharSetHasChar(cs, ch)) return false;
        p += n;
        len -= n;
    }
    return true;
}

// The first font (of the families in order, "" = any) that covers `required`.
bool find_font(std::initializer_list<const char*> families, const char* lang, const char* required, FontFile& out,
               std::string& error) {
    FcConfig* config = FcInitLoadConfigAndFonts();
    if (!config) {
        error = "fontconfig could not be initialised";
        return false;
    }
    bool found = false;
    for (const char* family : families) {
        FcPattern* pat = FcPatternCreate();
        if (*lang) FcPatternAddString(pat, FC_LANG, reinterpret_cast<const FcChar8*>(lang));
        if (*family) FcPatternAddString(pat, FC_FAMILY, reinterpret_cast<const FcChar8*>(family));
        FcObjectSet* os = FcObjectSetBuild(FC_FILE, FC_INDEX, FC_CHARSET, FC_FAMILY, FC_WEIGHT, FC_SLANT, FC_WIDTH, nullptr);
        FcFontSet* set = FcFontList(config, pat, os);
        // An upright face of regular weight and width first (a family lists its bold and
        // oblique files too), then any.
        for (int pass = 0; pass < 2 && !found; ++pass)
            for (int i = 0; set && i < set->nfont && !found; ++i) {
                FcChar8* file = nullptr;
                FcCharSet* cs = nullptr;
                int index = 0, weight = FC_WEIGHT_REGULAR, slant = FC_SLANT_ROMAN, width = FC_WIDTH_NORMAL;
                if (FcPatternGetString(set->fonts[i], FC_FILE, 0, &file) != FcResultMatch) continue;
                if (FcPatternGetCharSet(set->fonts[i], FC_CHARSET, 0, &cs) != FcResultMatch) continue;
                FcPatternGetInteger(set->fonts[i], FC_INDEX, 0, &index);
                FcPatternGetInteger(set->fonts[i], FC_WEIGHT, 0, &weight);
                FcPatternGetInteger(set->fonts[i], FC_SLANT, 0, &slant);
                FcPatternGetInteger(set->fonts[i], FC_WIDTH, 0, &width);
                if (pass == 0 && (slant != FC_SLANT_ROMAN || width != FC_WIDTH_NORMAL || weight < FC_WEIGHT_BOOK ||
                                  weight > FC_WEIGHT_MEDIUM))
                    continue;
                // SFML opens only the first face of a collection.
                if (index != 0 || !covers(cs, required)) continue;
                out.path = reinterpret_cast<const char*>(file);
                out.index = index;
                found = true;
            }
        if (set) FcFontSetDestroy(set);
        FcObjectSetDestroy(os);
        FcPatternDestroy(pat);
        if (found) break;
    }
    FcConfigDestroy(config);
    return found;
}

}  // namespace

bool find_cjk_font(FontFile& out, std::string& error) {
    // Prefer the font the setup installs, then any font that covers the board's characters.
    if (find_font({"WenQuanYi Micro Hei", ""}, "zh-cn", REQUIRED, out, error)) return true;
    if (error.empty())
        error = "no font with Chinese characters was found through fontconfig; install the "
                "Debian package fonts-wqy-microhei (sudo apt-get install fonts-wqy-microhei)";
    return false;
}

bool find_symbol_font(FontFile& out, std::string& error) {
    if (find_font({"DejaVu Sans", "Symbola", ""}, "", SYMBOLS, out, error)) return true;
    if (error.empty())
        error = "no font with symbols (such as ☺ ✓ ★ ♟ →) was found through fontconfig; chat shows them "
                "as '?'. Install the Debian package fonts-dejavu-core (sudo apt-get install fonts-dejavu-core)";
    return false;
}

}  // namespace xq::client
