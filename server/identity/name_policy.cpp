#include "server/identity/name_policy.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>

#include <array>
#include <stdexcept>

#include "protocol/limits.h"
#include "protocol/utf8.h"

namespace xq::server {

namespace {

// Names the server keeps for itself, compared by confusable key with punctuation and spaces
// removed. "ai level" is a prefix: the built-in AI's seats are named "AI level N".
constexpr std::array BUILT_IN_RESERVED = {"server", "operator", "system", "admin", "administrator", "moderator",
                                          "console", "host", "root", "referee", "xiangqi", "ai", "engine",
                                          "everyone", "nobody"};
constexpr std::string_view RESERVED_PREFIX = "ailevel";

// Raw text longer than this cannot become a legal name even after NFC composes it, so it
// is refused before any Unicode work (a name's code points may each arrive decomposed).
constexpr std::size_t MAX_RAW_NAME_BYTES = proto::MAX_NAME_CODE_POINTS * 4 * 4;
// Combining marks in a row above this are a "zalgo" stack that spills over other lines.
constexpr int MAX_MARKS_IN_A_ROW = 4;

const icu::Normalizer2& nfc() {
    UErrorCode st = U_ZERO_ERROR;
    const icu::Normalizer2* n = icu::Normalizer2::getNFCInstance(st);
    if (U_FAILURE(st) || !n) throw std::runtime_error("ICU: no NFC normalizer (ICU data missing?)");
    return *n;
}

const icu::Normalizer2& nfkc_casefold() {
    UErrorCode st = U_ZERO_ERROR;
    const icu::Normalizer2* n = icu::Normalizer2::getNFKCCasefoldInstance(st);
    if (U_FAILURE(st) || !n) throw std::runtime_error("ICU: no NFKC_Casefold normalizer (ICU data missing?)");
    return *n;
}

std::string to_utf8(const icu::UnicodeString& s) {
    std::string out;
    s.toUTF8String(out);
    return out;
}

bool is_mark(UChar32 c) { return (U_GET_GC_MASK(c) & U_GC_M_MASK) != 0; }
bool is_visible(UChar32 c) {
    return (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_P_MASK | U_GC_S_MASK)) != 0;
}
// Characters that take up room but draw nothing, yet are letters or symbols to Unicode.
bool draws_blank(UChar32 c) {
    return c == 0x2800 /* braille blank */ || c == 0x3164 || c == 0x115F || c == 0x1160 || c == 0xFFA0 /* hangul fillers */;
}
bool invisible(UChar32 c) {
    return u_charType(c) == U_FORMAT_CHAR || u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
           u_hasBinaryProperty(c, UCHAR_BIDI_CONTROL) || u_hasBinaryProperty(c, UCHAR_JOIN_CONTROL) ||
           draws_blank(c);
}
bool control(UChar32 c) {
    const auto t = u_charType(c);
    return t == U_CONTROL_CHAR || t == U_LINE_SEPARATOR || t == U_PARAGRAPH_SEPARATOR;
}

NameCheck refuse(NameRefusal why, std::string message) {
    NameCheck r;
    r.refusal = why;
    r.error = std::move(message);
    return r;
}

}  // namespace

NamePolicy::NamePolicy(const std::vector<std::string>& reserved) {
    UErrorCode st = U_ZERO_ERROR;
    spoof_ = uspoof_open(&st);
    if (U_FAILURE(st)) throw std::runtime_error(std::string("ICU: cannot open a spoof checker: ") + u_errorName(st));
    // Latin may mix with one other recommended script except Cyrillic and Greek, the two whose
    // letters pass for Latin ones; Han with kana or hangul is fine (UTS #39, 5.2).
    uspoof_setRestrictionLevel(spoof_, USPOOF_MODERATELY_RESTRICTIVE);
    uspoof_setChecks(spoof_, USPOOF_RESTRICTION_LEVEL | USPOOF_MIXED_NUMBERS | USPOOF_INVISIBLE, &st);
    if (U_FAILURE(st)) {
        uspoof_close(spoof_);
        throw std::runtime_error(std::string("ICU: cannot set up the spoof checker: ") + u_errorName(st));
    }
    for (const char* word : BUILT_IN_RESERVED) reserved_.push_back(core_key(word));
    for (const auto& word : reserved) {
        const NameKey k = core_key(word);
        if (!k.empty()) reserved_.push_back(k);
    }
    reserved_prefix_ = core_key(RESERVED_PREFIX);
}

NamePolicy::~NamePolicy() { uspoof_close(spoof_); }

void NamePolicy::reserve(std::string_view name) {
    const NameKey k = core_key(name);
    if (!k.empty()) reserved_.push_back(k);
}

NameKey NamePolicy::key_of_nfc(std::string_view nfc_text) const {
    UErrorCode st = U_ZERO_ERROR;
    const icu::UnicodeString s = icu::UnicodeString::fromUTF8(icu::StringPiece(nfc_text.data(), static_cast<int32_t>(nfc_text.size())));
    icu::UnicodeString folded_first = nfkc_casefold().normalize(s, st);
    icu::UnicodeString a, b;
    uspoof_getSkeletonUnicodeString(spoof_, 0, folded_first, a, &st);
    uspoof_getSkeletonUnicodeString(spoof_, 0, s, b, &st);
    const icu::UnicodeString shaped = nfkc_casefold().normalize(b, st);
    if (U_FAILURE(st)) return {};
    return {to_utf8(a), to_utf8(shaped)};
}

NameKey NamePolicy::key(std::string_view text) const {
    if (!proto::valid_utf8(text) || text.size() > 4 * MAX_RAW_NAME_BYTES) return {};
    UErrorCode st = U_ZERO_ERROR;
    const icu::UnicodeString s =
        nfc().normalize(icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size()))), st);
    if (U_FAILURE(st)) return {};
    icu::UnicodeString kept;
    for (int32_t i = 0; i < s.length(); i = s.moveIndex32(i, 1)) {
        const UChar32 c = s.char32At(i);
        if (control(c) || invisible(c)) continue;
        kept.append(c);
    }
    kept.trim();
    if (kept.isEmpty()) return {};
    return key_of_nfc(to_utf8(kept));
}

NameKey NamePolicy::core_key(std::string_view text) const {
    if (!proto::valid_utf8(text)) return {};
    UErrorCode st = U_ZERO_ERROR;
    const icu::UnicodeString s =
        nfkc_casefold().normalize(icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size()))), st);
    if (U_FAILURE(st)) return {};
    icu::UnicodeString core;
    for (int32_t i = 0; i < s.length(); i = s.moveIndex32(i, 1)) {
        const UChar32 c = s.char32At(i);
        if (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_M_MASK)) core.append(c);
    }
    if (core.isEmpty()) return {};
    return key_of_nfc(to_utf8(core));
}

bool NamePolicy::reserved(std::string_view name) const {
    const NameKey k = core_key(name);
    if (k.empty()) return false;
    for (const auto& r : reserved_)
        if (k.same(r)) return true;
    return k.folded.starts_with(reserved_prefix_.folded) || k.shaped.starts_with(reserved_prefix_.shaped);
}

NameCheck NamePolicy::check(std::string_view raw) const {
    if (raw.empty()) return refuse(NameRefusal::Empty, "name is empty");
    if (!proto::valid_utf8(raw)) return refuse(NameRefusal::BadUtf8, "name is not valid UTF-8");
    if (raw.size() > MAX_RAW_NAME_BYTES)
        return refuse(NameRefusal::TooLong,
                      "name is longer than " + std::to_string(proto::MAX_NAME_CODE_POINTS) + " characters");
    UErrorCode st = U_ZERO_ERROR;
    const icu::UnicodeString s =
        nfc().normalize(icu::UnicodeString::fromUTF8(icu::StringPiece(raw.data(), static_cast<int32_t>(raw.size()))), st);
    if (U_FAILURE(st)) return refuse(NameRefusal::BadUtf8, "name cannot be normalized");
    if (static_cast<std::size_t>(s.countChar32()) > proto::MAX_NAME_CODE_POINTS)
        return refuse(NameRefusal::TooLong,
                      "name is longer than " + std::to_string(proto::MAX_NAME_CODE_POINTS) + " characters");

    bool any_visible = false;
    int marks_in_a_row = 0;
    UChar32 previous = 0;
    for (int32_t i = 0; i < s.length(); i = s.moveIndex32(i, 1)) {
        const UChar32 c = s.char32At(i);
        if (control(c)) return refuse(NameRefusal::Control, "name contains control characters");
        if (invisible(c))
            return refuse(NameRefusal::Invisible,
                          "name contains invisible characters (direction controls, zero-width or format characters)");
        const auto type = u_charType(c);
        if (type == U_UNASSIGNED || type == U_PRIVATE_USE_CHAR || type == U_SURROGATE)
            return refuse(NameRefusal::Unassigned, "name contains unassigned or private-use characters");
        if (u_isUWhiteSpace(c) || type == U_SPACE_SEPARATOR) {
            if (c != U' ') return refuse(NameRefusal::Spacing, "the only space allowed in a name is the plain space");
            if (i == 0 || i + 1 == s.length()) return refuse(NameRefusal::Spacing, "name starts or ends with a space");
            if (previous == U' ') return refuse(NameRefusal::Spacing, "name has two spaces in a row");
        }
        if (is_mark(c)) {
            if (i == 0 || previous == U' ')
                return refuse(NameRefusal::Marks, "name has a combining mark with no letter to sit on");
            if (++marks_in_a_row > MAX_MARKS_IN_A_ROW)
                return refuse(NameRefusal::Marks, "name stacks too many combining marks");
        } else {
            marks_in_a_row = 0;
        }
        if (is_visible(c)) any_visible = true;
        previous = c;
    }
    if (!any_visible) return refuse(NameRefusal::NoVisible, "name has no visible character");

    const int32_t spoof = uspoof_checkUnicodeString(spoof_, s, nullptr, &st);
    if (U_FAILURE(st)) return refuse(NameRefusal::BadUtf8, "name cannot be checked");
    if (spoof & USPOOF_INVISIBLE)
        return refuse(NameRefusal::Invisible, "name repeats a combining mark, which shows as one");
    if (spoof & (USPOOF_RESTRICTION_LEVEL | USPOOF_MIXED_NUMBERS))
        return refuse(NameRefusal::MixedScripts,
                      "name mixes scripts or digit systems whose letters look alike (e.g. Latin with Cyrillic)");

    NameCheck r;
    r.name = to_utf8(s);
    if (reserved(r.name)) return refuse(NameRefusal::Reserved, "that name is kept for the server");
    r.key = key_of_nfc(r.name);
    if (r.key.empty()) return refuse(NameRefusal::BadUtf8, "name cannot be checked");
    return r;
}

}  // namespace xq::server
