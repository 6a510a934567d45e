// The board's Chinese font comes from fontconfig; without one the error names the package.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "app/font_finder.h"

using namespace xq::client;

TEST(FontFinder, FindsAFontWithTheBoardCharacters) {
    FontFile f;
    std::string err;
    ASSERT_TRUE(find_cjk_font(f, err)) << err << " (tools/setup.sh installs fonts-wqy-microhei)";
    EXPECT_TRUE(std::filesystem::exists(f.path)) << f.path;
    EXPECT_EQ(f.index, 0);
}

TEST(FontFinder, FindsAFallbackFontForSymbols) {
    FontFile f;
    std::string err;
    ASSERT_TRUE(find_symbol_font(f, err)) << err << " (tools/setup.sh installs fonts-dejavu-core)";
    EXPECT_TRUE(std::filesystem::exists(f.path)) << f.path;
    EXPECT_EQ(f.path.find("Bold"), std::string::npos) << "a regular face first: " << f.path;
    EXPECT_EQ(f.path.find("Oblique"), std::string::npos) << "an upright face first: " << f.path;
}

TEST(FontFinder, NoFontGivesAClearError) {
    // A fontconfig configuration that knows no font directories at all.
    const auto dir = std::filesystem::temp_directory_path() / ("xq_nofonts_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto conf = dir / "fonts.conf";
    std::ofstream(conf) << "<?xml version=\"1.0\"?>\n<fontconfig><cachedir>" << (dir / "cache").string()
                        << "</cachedir></fontconfig>\n";
    const char* old = std::getenv("FONTCONFIG_FILE");
    const std::string saved = old ? old : "";
    ::setenv("FONTCONFIG_FILE", conf.c_str(), 1);
    FontFile f;
    std::string err;
    const bool found = find_cjk_font(f, err);
    FontFile symbols;
    std::string symbols_err;
    const bool found_symbols = find_symbol_font(symbols, symbols_err);
    if (old) ::setenv("FONTCONFIG_FILE", saved.c_str(), 1);
    else ::unsetenv("FONTCONFIG_FILE");
    std::filesystem::remove_all(dir);
    EXPECT_FALSE(found);
    EXPECT_NE(err.find("fonts-wqy-microhei"), std::string::npos) << err;
    EXPECT_FALSE(found_symbols);
    EXPECT_NE(symbols_err.find("fonts-dejavu-core"), std::string::npos) << symbols_err;
}
