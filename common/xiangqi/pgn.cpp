#include "pgn.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace xq {

namespace {

constexpr std::size_t LINE_WIDTH = 80;
constexpr std::array<std::string_view, 6> ROSTER = {"Event", "Site", "Date", "Round", "Red", "Black"};

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = char(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = char(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}

const std::string* find_tag(const PgnTags& tags, std::string_view name) {
    for (const auto& [k, v] : tags)
        if (iequals(k, name)) return &v;
    return nullptr;
}

std::string escape_tag(std::string_view v) {
    std::string out;
    for (char c : v) {
        if (c == '\\' || c == '"') out += '\\';
        out += (c == '\n' || c == '\r') ? ' ' : c;
    }
    return out;
}

// "2026-11-29" and "2026/11/29" become the PGN form "2026.11.29".
std::string normalize_date(std::string v) {
    if (v.size() == 10 && (v[4] == '-' || v[4] == '/') && v[7] == v[4]) v[4] = v[7] = '.';
    return v;
}

// PGN comments cannot contain a closing brace.
std::string clean_comment(std::string_view c) {
    std::string out(c);
    std::replace(out.begin(), out.end(), '}', ')');
    return out;
}

std::string move_text(const Position& pos, Move m, Notation n) {
    return n == Notation::Iccs ? to_iccs_pgn(m) : format_move(pos, m, n);
}

std::string write_impl(const PgnTags& given, const Position& start, const std::vector<Move>& moves,
                       const std::vector<std::string>* comments, std::string_view pre_comment, Outcome result,
                       std::string_view termination, Notation notation) {
    std::string out = "[Game \"Chinese Chess\"]\n";
    auto tag = [&](std::string_view name, std::string_view value) {
        out += '[';
        out += name;
        out += " \"" + escape_tag(value) + "\"]\n";
    };
    for (std::string_view name : ROSTER) {
        const std::string* v = find_tag(given, name);
        std::string value = v ? *v : (name == "Date" ? "????.??.??" : "?");
        if (name == "Date") value = normalize_date(value);
        tag(name, value);
    }
    tag("Result", outcome_pgn(result));
    if (start.fen() != START_FEN) tag("FEN", start.fen());
    if (notation != Notation::Chinese) tag("Format", notation_name(notation));
    for (const auto& [k, v] : given) {
        bool known = iequals(k, "Game") || iequals(k, "Result") || iequals(k, "FEN") || iequals(k, "Format");
        for (std::string_view name : ROSTER) known = known || iequals(k, name);
        if (!known && !k.empty()) tag(k, v);
    }
    if (!termination.empty() && !find_tag(given, "Termination")) tag("Termination", termination);
    out += '\n';

    std::string line;
    std::size_t width = 0;  // display columns of `line`: Chinese characters take two
    auto columns = [](const std::string& t) {
        std::size_t w = 0;
        for (unsigned char c : t) w += c < 0x80 ? 1 : (c & 0xC0) != 0x80 ? 2 : 0;
        return w;
    };
    auto emit = [&](const std::string& token) {
        const std::size_t w = columns(token);
        if (!line.empty() && width + 1 + w > LINE_WIDTH) {
            out += line + '\n';
            line.clear();
            width = 0;
        }
        if (!line.empty()) {
            line += ' ';
            ++width;
        }
        line += token;
        width += w;
    };
    if (!pre_comment.empty()) emit("{" + clean_comment(pre_comment) + "}");
    Position pos = start;
    int number = start.fullmove();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const bool red = pos.side_to_move() == RED;
        std::string token;
        if (red) token = std::to_string(number) + ". ";
        else if (i == 0) token = std::to_string(number) + "... ";
        token += move_text(pos, moves[i], notation);
        emit(token);
        if (comments && i < comments->size() && !(*comments)[i].empty())
            emit("{" + clean_comment((*comments)[i]) + "}");
        UndoInfo undo;
        pos.do_move(moves[i], undo);
        if (!red) ++number;
    }
    emit(std::string(outcome_pgn(result)));
    out += line + "\n";
    return out;
}

// ---------------------------------------------------------------------------------------------
// Reading

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string trim(std::string_view s) {
    while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
    return std::string(s);
}

bool parse_result(std::string_view t, Outcome& out) {
    if (t == "1-0") out = Outcome::RedWins;
    else if (t == "0-1") out = Outcome::BlackWins;
    else if (t == "1/2-1/2") out = Outcome::Draw;
    else if (t == "*") out = Outcome::Ongoing;
    else return false;
    return true;
}

// Reads one game from text starting at pos_; records where it stopped.
class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // UTF-8 byte order mark
    }

    bool at_end() {
        skip_space();
        return pos_ >= text_.size();
    }

    PgnReadResult read_game();

    // After an error: moves past the rest of the broken game, to the next tag section (a tag
    // line after a line that is not a tag line).
    void skip_to_next_game() {
        skip_line();
        if (pos_ < text_.size()) advance();
        bool seen_other = in_movetext_;
        while (pos_ < text_.size()) {
            const std::size_t eol = text_.find('\n', pos_);
            const std::size_t end = eol == std::string_view::npos ? text_.size() : eol;
            std::string_view l = text_.substr(pos_, end - pos_);
            const std::size_t first = l.find_first_not_of(" \t\r");
            const bool tag_line = first != std::string_view::npos && l[first] == '[';
            if (tag_line && seen_other) return;
            if (!tag_line) seen_other = true;
            pos_ = end;
            if (pos_ < text_.size()) {
                ++pos_;
                ++line_;
            }
        }
    }

private:
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    void advance() {
        if (text_[pos_] == '\n') ++line_;
        ++pos_;
    }
    bool at_ideographic_space() const { return text_.substr(pos_, 3) == "\xE3\x80\x80"; }
    void skip_space() {
        while (pos_ < text_.size()) {
            if (is_ascii_space(text_[pos_])) advance();
            else if (at_ideographic_space()) pos_ += 3;
            else if (text_[pos_] == '%' && at_line_start()) skip_line();  // PGN escape line
            else break;
        }
    }
    bool at_line_start() const {
        std::size_t p = pos_;
        while (p > 0 && (text_[p - 1] == ' ' || text_[p - 1] == '\t')) --p;
        return p == 0 || text_[p - 1] == '\n';
    }
    void skip_line() {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    }
    bool read_tag(PgnGame& g, std::string& error);
    bool read_braced(std::string& out, std::string& error);
    bool skip_variation(std::string& error);

    std::string_view text_;
    std::size_t pos_ = 0;
    int line_ = 1;
    int error_line_ = 0;  // where an error began when that is not the current line
    bool in_movetext_ = false;
};

// [Name "value"] on one line.
bool Reader::read_tag(PgnGame& g, std::string& error) {
    advance();  // '['
    const std::size_t name_start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    const std::string name(text_.substr(name_start, pos_ - name_start));
    if (name.empty()) {
        error = "tag without a name";
        return false;
    }
    while (peek() == ' ' || peek() == '\t') ++pos_;
    if (peek() != '"') {
        error = "tag [" + name + "] has no quoted value";
        return false;
    }
    ++pos_;
    std::string value;
    for (;;) {
        const char c = peek();
        if (pos_ >= text_.size() || c == '\n') {
            error = "unterminated tag [" + name + "]: missing closing quote";
            return false;
        }
        ++pos_;
        if (c == '"') break;
        if (c == '\\' && (peek() == '"' || peek() == '\\')) {
            value += text_[pos_++];
            continue;
        }
        value += c;
        if (value.size() > MAX_PGN_TAG_BYTES) {
            error = "tag [" + name + "] is longer than " + std::to_string(MAX_PGN_TAG_BYTES) + " bytes";
            return false;
        }
    }
    while (peek() == ' ' || peek() == '\t') ++pos_;
    if (peek() != ']') {
        error = "unterminated tag [" + name + "]: missing ']'";
        return false;
    }
    ++pos_;
    g.tags.emplace_back(name, value);
    return true;
}

// A {comment}, possibly over several lines.
bool Reader::read_braced(std::string& out, std::string& error) {
    const int start_line = line_;
    advance();  // '{'
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '}') advance();
    if (pos_ >= text_.size()) {
        error_line_ = start_line;
        error = "unterminated comment: '{' without '}'";
        return false;
    }
    if (pos_ - start > MAX_PGN_COMMENT_BYTES) {
        error_line_ = start_line;
        error = "comment longer than " + std::to_string(MAX_PGN_COMMENT_BYTES) + " bytes";
        return false;
    }
    out = trim(text_.substr(start, pos_ - start));
    advance();  // '}'
    return true;
}

// Variations ( ... ) are not kept; nested ones and comments inside are skipped whole.
bool Reader::skip_variation(std::string& error) {
    const int start_line = line_;
    int depth = 0;
    while (pos_ < text_.size()) {
        const char c = text_[pos_];
        if (c == '{') {
            std::string ignored;
            if (!read_braced(ignored, error)) return false;
            continue;
        }
        advance();
        if (c == '(') ++depth;
        else if (c == ')' && --depth == 0) return true;
    }
    error_line_ = start_line;
    error = "unterminated variation: '(' without ')'";
    return false;
}

PgnReadResult Reader::read_game() {
    PgnReadResult r;
    PgnGame& g = r.game;
    error_line_ = 0;
    in_movetext_ = false;
    auto fail = [&](std::string message) {
        r.ok = false;
        r.line = error_line_ ? error_line_ : line_;
        r.error = std::move(message);
        return r;
    };
    std::string error;

    // Tag section.
    int fen_line = 0, game_line = 0;
    skip_space();
    while (peek() == '[') {
        const int tag_line = line_;
        if (!read_tag(g, error)) return fail(error);
        if (iequals(g.tags.back().first, "FEN")) fen_line = tag_line;
        if (iequals(g.tags.back().first, "Game")) game_line = tag_line;
        skip_space();
    }
    if (const std::string* game = find_tag(g.tags, "Game")) {
        error_line_ = game_line;
        if (!iequals(*game, "Chinese Chess") && !iequals(*game, "Xiangqi"))
            return fail("not a Xiangqi game: [Game \"" + *game + "\"]");
        error_line_ = 0;
    }
    if (const std::string* fen = find_tag(g.tags, "FEN")) {
        const FenError e = g.start.set_fen(*fen);
        if (e != FenError::None) {
            error_line_ = fen_line;
            return fail("bad FEN tag: " + std::string(fen_error_message(e)));
        }
    }
    if (const std::string* res = find_tag(g.tags, "Result")) parse_result(trim(*res), g.result);
    bool by_format = false;
    Notation format = Notation::Chinese;
    if (const std::string* f = find_tag(g.tags, "Format")) {
        if (iequals(trim(*f), "ICCS")) by_format = true, format = Notation::Iccs;
        else if (iequals(trim(*f), "WXF")) by_format = true, format = Notation::Wxf;
        else if (iequals(trim(*f), "Chinese")) by_format = true, format = Notation::Chinese;
    }

    // Move text.
    Position pos = g.start;
    int number = g.start.fullmove();
    auto add_comment = [&](const std::string& c) {
        if (c.empty()) return;
        std::string& dst = g.moves.empty() ? g.pre_comment : g.comments.back();
        if (!dst.empty()) dst += ' ';
        dst += c;
    };
    in_movetext_ = true;
    for (;;) {
        skip_space();
        if (pos_ >= text_.size()) break;
        const char c = peek();
        if (c == '[' && at_line_start()) break;  // the next game's tags (no result token here)
        if (c == '{') {
            std::string comment;
            if (!read_braced(comment, error)) return fail(error);
            add_comment(comment);
            continue;
        }
        if (c == ';') {  // comment to the end of the line
            const std::size_t start = pos_ + 1;
            skip_line();
            add_comment(trim(text_.substr(start, pos_ - start)));
            continue;
        }
        if (c == '(') {
            if (!skip_variation(error)) return fail(error);
            continue;
        }
        if (c == ')') return fail("')' without '('");
        // A word: up to white space or a PGN delimiter.
        const std::size_t start = pos_;
        while (pos_ < text_.size() && !is_ascii_space(text_[pos_]) && !at_ideographic_space() &&
               text_[pos_] != '{' && text_[pos_] != '(' && text_[pos_] != ')' && text_[pos_] != ';')
            ++pos_;
        std::string_view word = text_.substr(start, pos_ - start);
        if (word.empty()) {  // a lone delimiter byte we cannot place
            ++pos_;
            return fail("unexpected character");
        }
        Outcome outcome = Outcome::Ongoing;
        if (parse_result(word, outcome)) {
            g.result = outcome;
            // A comment on the same line after the result still belongs to this game.
            for (;;) {
                while (peek() == ' ' || peek() == '\t' || peek() == '\r') ++pos_;
                if (peek() != '{') break;
                std::string comment;
                if (!read_braced(comment, error)) return fail(error);
                add_comment(comment);
            }
            r.ok = true;
            return r;
        }
        if (word[0] == '$') continue;  // numeric annotation glyph
        // Move numbers "12." "12..." "12…", possibly glued to the move: "1.炮二平五".
        std::size_t digits = 0;
        while (digits < word.size() && word[digits] >= '0' && word[digits] <= '9') ++digits;
        std::size_t dots = digits;
        while (dots < word.size() && (word[dots] == '.' || word.substr(dots, 3) == "\xE2\x80\xA6")) dots += word[dots] == '.' ? 1 : 3;
        if (dots == word.size() && dots > digits) continue;  // "12." or a bare "..."
        if (digits > 0 && dots > digits) {
            const ParsedMove whole = parse_move(pos, word);
            if (!whole.ok()) word.remove_prefix(dots);
        }
        // Annotation marks after a move: "炮二平五!?".
        while (!word.empty() && (word.back() == '!' || word.back() == '?')) word.remove_suffix(1);
        if (word.empty()) continue;

        ParsedMove pm = by_format ? parse_move(pos, word, format) : parse_move(pos, word);
        if (by_format && pm.error == NotationError::Malformed) pm = parse_move(pos, word);
        const bool red = pos.side_to_move() == RED;
        if (!pm.ok()) {
            bool printable = word.size() <= MAX_MOVE_TEXT && valid_utf8(word);
            for (unsigned char ch : word) printable = printable && ch >= 0x20 && ch != 0x7F;
            const std::string shown = printable ? std::string(word) : "unreadable bytes";
            return fail("move " + std::to_string(number) + (red ? "" : "...") + " (" + shown + "): " + pm.message);
        }
        if (g.moves.size() >= MAX_PGN_PLIES)
            return fail("more than " + std::to_string(MAX_PGN_PLIES) + " plies in one game");
        UndoInfo undo;
        pos.do_move(pm.move, undo);
        g.moves.push_back(pm.move);
        g.comments.emplace_back();
        if (!red) ++number;
    }
    if (g.tags.empty() && g.moves.empty() && g.pre_comment.empty()) return fail("no game found");
    r.ok = true;
    return r;
}

}  // namespace

std::string PgnGame::tag(std::string_view name) const {
    const std::string* v = find_tag(tags, name);
    return v ? *v : std::string();
}

std::string write_pgn(const Game& game, const PgnTags& tags, Notation notation) {
    // The result's reason in words ("Black loses: perpetual chase ...") goes in a Termination tag.
    return write_impl(tags, game.start_position(), game.moves(), nullptr, "", game.result().outcome,
                      game.result().text, notation);
}

std::string write_pgn(const PgnGame& game, Notation notation) {
    return write_impl(game.tags, game.start, game.moves, &game.comments, game.pre_comment, game.result, "",
                      notation);
}

PgnReadResult read_pgn(std::string_view text) {
    Reader reader(text);
    if (reader.at_end()) {
        PgnReadResult r;
        r.line = 1;
        r.error = "no game found";
        return r;
    }
    return reader.read_game();
}

std::vector<PgnReadResult> read_pgn_all(std::string_view text) {
    std::vector<PgnReadResult> out;
    Reader reader(text);
    while (!reader.at_end()) {
        out.push_back(reader.read_game());
        if (!out.back().ok) reader.skip_to_next_game();
    }
    return out;
}

}  // namespace xq
