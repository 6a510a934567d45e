// Who may be called what: nicknames normalized (NFC) and checked with ICU, a confusable key
// so that look-alike names count as one name (uniqueness, bans, invitations, accounts), and
// the names the server keeps for itself.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct USpoofChecker;

namespace xq::server {

// The confusable key of a name, in two forms because look-alikes are not transitive:
// case folding first merges "ALICE" with "alice"; the skeleton first merges "AIice" (capital
// i) and "b0b" (digit zero) with "alice" and "bob". Two names are one name if either matches.
struct NameKey {
    std::string folded;  // skeleton(NFKC_Casefold(name)), UTS #39's case-insensitive form
    std::string shaped;  // NFKC_Casefold(skeleton(name))

    bool same(const NameKey& other) const { return folded == other.folded || shaped == other.shaped; }
    bool empty() const { return folded.empty(); }
};

// Why a nickname was refused; the message for the user comes from NameCheck::error.
enum class NameRefusal {
    None,
    Empty,
    BadUtf8,
    TooLong,
    Control,     // C0/C1 controls, line and paragraph separators
    Invisible,   // bidi controls, format, zero-width and other default-ignorable characters
    Unassigned,  // unassigned, private-use code points
    Spacing,     // a space other than U+0020, leading/trailing/doubled spaces
    Marks,       // a combining mark with nothing to sit on, or a stack of them
    NoVisible,   // nothing a reader would see
    MixedScripts,
    Reserved,
};

// The outcome of NamePolicy::check: the name as the server will use it, or why not.
struct NameCheck {
    std::string name;  // NFC
    NameKey key;
    NameRefusal refusal = NameRefusal::None;
    std::string error;  // for the user; never echoes the refused text

    bool ok() const { return refusal == NameRefusal::None; }
};

class NamePolicy {
public:
    // `reserved` adds names to the built-in list (server, operator, system, AI names...),
    // e.g. the external engines' names, which also appear in seats.
    explicit NamePolicy(const std::vector<std::string>& reserved = {});
    ~NamePolicy();
    NamePolicy(const NamePolicy&) = delete;
    NamePolicy& operator=(const NamePolicy&) = delete;

    // Keeps one more name for the server (an external engine's, known after construction).
    void reserve(std::string_view name);

    // A nickname as sent in `hello` or `register`.
    NameCheck check(std::string_view raw) const;
    // The key of any text naming someone (a ban entry, `invite.name`): lenient, it drops what
    // check() refuses, so `ban mal<U+200B>lory` bans "mallory". Empty for invalid UTF-8.
    NameKey key(std::string_view text) const;
    // True if the name is, or looks like, one the server keeps (punctuation and spaces aside:
    // "[server]", "Server!", "s y s t e m").
    bool reserved(std::string_view name) const;

private:
    NameKey key_of_nfc(std::string_view nfc) const;
    // The key of the text's letters, digits and marks only (for the reserved names).
    NameKey core_key(std::string_view text) const;

    USpoofChecker* spoof_ = nullptr;  // owned; const after construction, so thread-safe to use
    std::vector<NameKey> reserved_;
    NameKey reserved_prefix_;
};

}  // namespace xq::server
