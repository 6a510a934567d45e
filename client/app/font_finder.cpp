#include "app/font_finder.h"

#include <fontconfig/fontconfig.h>

namespace xq::client {

namespace {

// Every character the board itself needs; a font missing any of them is not used.
constexpr const char* REQUIRED = "帥仕相俥傌炮兵將士象車馬砲卒楚河汉界";

bool covers_required(FcCharSet* cs) {
    const auto* p = reinterpret_cast<const FcChar8*>(REQUIRED);
    int len = 0;
    for (const char* c = REQUIRED; *c; ++c) ++len;
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

}  // namespace

bool find_cjk_font(FontFile& out, std::string& error) {
    FcConfig* config = FcInitLoadConfigAndFonts();
    if (!config) {
        error = "fontconfig could not be initialised";
        return false;
    }
    bool found = false;
    // Prefer the font the setup installs, then any font that covers the board's characters.
    for (const char* family : {"WenQuanYi Micro Hei", ""}) {
        FcPattern* pat = FcPatternCreate();
        FcPatternAddString(pat, FC_LANG, reinterpret_cast<const FcChar8*>("zh-cn"));
        if (*family) FcPatternAddString(pat, FC_FAMILY, reinterpret_cast<const FcChar8*>(family));
        FcObjectSet* os = FcObjectSetBuild(FC_FILE, FC_INDEX, FC_CHARSET, FC_FAMILY, nullptr);
        FcFontSet* set = FcFontList(config, pat, os);
        for (int i = 0; set && i < set->nfont && !found; ++i) {
            FcChar8* file = nullptr;
            FcCharSet* cs = nullptr;
            int index = 0;
            if (FcPatternGetString(set->fonts[i], FC_FILE, 0, &file) != FcResultMatch) continue;
            if (FcPatternGetCharSet(set->fonts[i], FC_CHARSET, 0, &cs) != FcResultMatch) continue;
            FcPatternGetInteger(set->fonts[i], FC_INDEX, 0, &index);
            // SFML opens only the first face of a collection.
            if (index != 0 || !covers_required(cs)) continue;
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
    if (!found)
        error = "no font with Chinese characters was found through fontconfig; install the "
                "Debian package fonts-wqy-microhei (sudo apt-get install fonts-wqy-microhei)";
    return found;
}

}  // namespace xq::client
