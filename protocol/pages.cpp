#include "protocol/pages.h"

#include <algorithm>
#include <unordered_map>

#include "protocol/codec.h"

namespace xq::proto {

namespace {

// Greedy packing: an item's cost is what it adds to an encoded page (its JSON and a comma).
// A page is closed before an item that would pass PerLine items or MAX_LINE_BYTES.
bool page_full(std::size_t items, std::size_t per_line, std::size_t used, std::size_t cost) {
    return items > 0 && (items == per_line || used + cost > MAX_LINE_BYTES);
}

// A line with an empty list: its `more`, `offset` (its first item's place) and `total`.
template <class Page>
Page empty_line(bool more, int offset, int total) {
    Page p{};
    p.more = more;
    p.offset = offset;
    p.total = total;
    return p;
}

// What a line takes before its items: the budget counts `more` on every line.
template <class Page>
std::size_t line_base(int offset, int total) {
    return encode(ServerMessage{empty_line<Page>(true, offset, total)}).size();
}

template <class Page, class Item>
std::vector<Page> paginate(const std::vector<Item>& items, std::vector<Item> Page::*list, std::size_t per_line,
                           int offset, int total) {
    if (total < 0) total = offset + static_cast<int>(items.size());
    std::vector<Page> pages{empty_line<Page>(false, offset, total)};
    std::size_t used = line_base<Page>(offset, total);
    int at = offset;
    for (const Item& item : items) {
        Page one{};
        (one.*list).push_back(item);
        const std::size_t cost = encode(ServerMessage{one}).size() - encode(ServerMessage{Page{}}).size() + 1;
        if (page_full((pages.back().*list).size(), per_line, used, cost)) {
            pages.back().more = true;
            pages.push_back(empty_line<Page>(false, at, total));
            used = line_base<Page>(at, total);
        }
        (pages.back().*list).push_back(item);
        used += cost;
        ++at;
    }
    return pages;
}

// A page's line cut around its empty list: the part up to '[' and the part from ']'.
std::pair<std::string, std::string> cut_at_list(const std::string& line) {
    const auto at = line.find("[]");
    return {line.substr(0, at + 1), line.substr(at + 1)};
}

}  // namespace

std::vector<Tables> table_pages(const std::vector<TableInfo>& tables, int offset, int total) {
    return paginate(tables, &Tables::tables, TABLES_PER_LINE, offset, total);
}

std::vector<Users> user_pages(const std::vector<UserInfo>& users, int offset, int total) {
    return paginate(users, &Users::users, USERS_PER_LINE, offset, total);
}

template <class Page, class Item, std::vector<Item> Page::*List, auto KeyMember, std::size_t PerLine>
EncodedPages<Page, Item, List, KeyMember, PerLine>::EncodedPages() {
    empty_ = encode(ServerMessage{Page{}});
    list_at_ = empty_.find("[]") + 1;
}

template <class Page, class Item, std::vector<Item> Page::*List, auto KeyMember, std::size_t PerLine>
std::string EncodedPages<Page, Item, List, KeyMember, PerLine>::encode_item(const Item& item) const {
    Page one{};
    (one.*List).push_back(item);
    const std::string line = encode(ServerMessage{one});
    return line.substr(list_at_, line.size() - empty_.size());
}

template <class Page, class Item, std::vector<Item> Page::*List, auto KeyMember, std::size_t PerLine>
bool EncodedPages<Page, Item, List, KeyMember, PerLine>::unchanged(const std::vector<Item>& items, int offset,
                                                                   int total) const {
    return built_ && offset == offset_ && total == total_ && std::equal(items.begin(), items.end(), entries_.begin(), entries_.end(),
                                [](const Item& now, const Encoded& before) { return now == before.item; });
}

// Each item takes the JSON of an equal kept item, else is encoded. The kept list is walked with
// a cursor: the item at the cursor or a few places past it (items removed) is tried first;
// after a few misses (a new order, e.g. a hash map rehashed) a key index over the kept items
// is built once and used for the rest.
template <class Page, class Item, std::vector<Item> Page::*List, auto KeyMember, std::size_t PerLine>
auto EncodedPages<Page, Item, List, KeyMember, PerLine>::reuse_or_encode(std::vector<Item>& items)
    -> std::vector<Encoded> {
    constexpr std::size_t LOOKAHEAD = 4;
    std::vector<Encoded> next;
    next.reserve(items.size());
    std::vector<bool> taken(entries_.size(), false);
    std::unordered_map<Key, std::size_t> index;  // key -> its first place in entries_
    bool indexed = false;
    std::size_t cursor = 0, misses = 0;
    auto take = [&](std::size_t k, Item& item) {
        if (k >= entries_.size() || taken[k] || !(entries_[k].item == item)) return false;
        taken[k] = true;
        next.push_back(Encoded{std::move(item), std::move(entries_[k].json)});
        cursor = k + 1;
        return true;
    };
    for (Item& item : items) {
        bool reused = false;
        for (std::size_t d = 0; d <= LOOKAHEAD && !reused; ++d) reused = take(cursor + d, item);
        if (!reused && (indexed || misses >= LOOKAHEAD)) {
            if (!indexed) {
                index.reserve(entries_.size());
                for (std::size_t k = 0; k < entries_.size(); ++k) index.emplace(entries_[k].item.*KeyMember, k);
                indexed = true;
            }
            const auto it = index.find(item.*KeyMember);
            reused = it != index.end() && take(it->second, item);
        }
        if (reused) continue;
        ++misses;
        // Changed in place: the kept item at the cursor is this one's old form.
        if (cursor < entries_.size() && entries_[cursor].item.*KeyMember == item.*KeyMember) ++cursor;
        std::string json = encode_item(item);
        next.push_back(Encoded{std::move(item), std::move(json)});
    }
    return next;
}

template <class Page, class Item, std::vector<Item> Page::*List, auto KeyMember, std::size_t PerLine>
void EncodedPages<Page, Item, List, KeyMember, PerLine>::pack(const std::vector<Encoded>& entries) {
    lines_.clear();
    int at = offset_, start = offset_;
    std::string body;
    std::size_t used = line_base<Page>(start, total_), count = 0;
    auto close_page = [&](bool more) {
        const auto [head, tail] = cut_at_list(encode_line(ServerMessage{empty_line<Page>(more, start, total_)}));
        lines_.push_back(std::make_shared<const std::string>(head + body + tail));
        body.clear();
    };
    for (const Encoded& e : entries) {
        const std::size_t cost = e.json.size() + 1;
        if (page_full(count, PerLine, used, cost)) {
            close_page(true);
            start = at;
            used = line_base<Page>(start, total_);
            count = 0;
        }
        if (count > 0) body += ',';
        body += e.json;
        used += cost;
        ++count;
        ++at;
    }
    close_page(false);
}

template <class Page, class Item, std::vector<Item> Page::*List, auto KeyMember, std::size_t PerLine>
auto EncodedPages<Page, Item, List, KeyMember, PerLine>::lines(std::vector<Item> items, int offset, int total)
    -> const std::vector<Line>& {
    if (total < 0) total = offset + static_cast<int>(items.size());
    if (unchanged(items, offset, total)) return lines_;
    offset_ = offset;
    total_ = total;
    entries_ = reuse_or_encode(items);
    pack(entries_);
    built_ = true;
    return lines_;
}

template class EncodedPages<Tables, TableInfo, &Tables::tables, &TableInfo::id, TABLES_PER_LINE>;
template class EncodedPages<Users, UserInfo, &Users::users, &UserInfo::name, USERS_PER_LINE>;

}  // namespace xq::proto
