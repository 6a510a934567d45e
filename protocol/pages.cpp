#include "protocol/pages.h"

#include <algorithm>
#include <deque>

#include "protocol/codec.h"

namespace xq::proto {

namespace {

// Greedy packing: an item's cost is what it adds to an encoded page (its JSON and a comma).
// A page is closed before an item that would pass PerLine items or MAX_LINE_BYTES.
bool page_full(std::size_t items, std::size_t per_line, std::size_t used, std::size_t cost) {
    return items > 0 && (items == per_line || used + cost > MAX_LINE_BYTES);
}

template <class Page, class Item>
std::vector<Page> paginate(const std::vector<Item>& items, std::vector<Item> Page::*list, std::size_t per_line) {
    Page empty{};
    empty.more = true;
    const std::size_t base = encode(ServerMessage{empty}).size();
    std::vector<Page> pages(1);
    std::size_t used = base;
    for (const Item& item : items) {
        Page one{};
        (one.*list).push_back(item);
        const std::size_t cost = encode(ServerMessage{one}).size() - encode(ServerMessage{Page{}}).size() + 1;
        if (page_full((pages.back().*list).size(), per_line, used, cost)) {
            pages.back().more = true;
            pages.emplace_back();
            used = base;
        }
        (pages.back().*list).push_back(item);
        used += cost;
    }
    return pages;
}

// A page's line cut around its empty list: the part up to '[' and the part from ']'.
std::pair<std::string, std::string> cut_at_list(const std::string& line) {
    const auto at = line.find("[]");
    return {line.substr(0, at + 1), line.substr(at + 1)};
}

}  // namespace

std::vector<Tables> table_pages(const std::vector<TableInfo>& tables) {
    return paginate(tables, &Tables::tables, TABLES_PER_LINE);
}

std::vector<Users> user_pages(const std::vector<UserInfo>& users) {
    return paginate(users, &Users::users, USERS_PER_LINE);
}

template <class Page, class Item, std::vector<Item> Page::*List, auto KeyMember, std::size_t PerLine>
EncodedPages<Page, Item, List, KeyMember, PerLine>::EncodedPages() {
    Page more{};
    more.more = true;
    std::tie(head_more_, tail_more_) = cut_at_list(encode_line(ServerMessage{more}));
    std::tie(head_last_, tail_last_) = cut_at_list(encode_line(ServerMessage{Page{}}));
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
bool EncodedPages<Page, Item, List, KeyMember, PerLine>::unchanged(const std::vector<Item>& items) const {
    return built_ && std::equal(items.begin(), items.end(), order_.begin(), order_.end(),
                                [](const Item& now, const Item* before) { return now == *before; });
}

template <class Page, class Item, std::vector<Item> Page::*List, auto KeyMember, std::size_t PerLine>
auto EncodedPages<Page, Item, List, KeyMember, PerLine>::lines(std::vector<Item> items) -> const std::vector<Line>& {
    if (unchanged(items)) return lines_;
    std::unordered_map<Key, Encoded> next;
    next.reserve(items.size());
    std::deque<std::string> repeated;  // items whose key came earlier in the list: encoded, not kept
    std::vector<const std::string*> jsons;
    jsons.reserve(items.size());
    order_.clear();
    bool unique = true;
    for (Item& item : items) {
        Key key = item.*KeyMember;  // a copy: `item` is moved into the map below
        if (next.contains(key)) {
            unique = false;
            jsons.push_back(&repeated.emplace_back(encode_item(item)));
            continue;
        }
        auto node = encoded_.extract(key);
        if (node.empty() || !(node.mapped().item == item)) {
            std::string json = encode_item(item);
            if (node.empty()) {
                const auto it = next.emplace(std::move(key), Encoded{std::move(item), std::move(json)}).first;
                jsons.push_back(&it->second.json);
                order_.push_back(&it->second.item);
                continue;
            }
            node.mapped() = Encoded{std::move(item), std::move(json)};
        }
        auto placed = next.insert(std::move(node));
        jsons.push_back(&placed.position->second.json);
        order_.push_back(&placed.position->second.item);
    }
    encoded_ = std::move(next);  // moves the nodes: the pointers above stay valid

    lines_.clear();
    const std::size_t base = head_more_.size() + tail_more_.size() - 1;  // without the '\n'
    std::string body;
    std::size_t used = base, count = 0;
    auto close_page = [&](bool more) {
        const std::string& head = more ? head_more_ : head_last_;
        const std::string& tail = more ? tail_more_ : tail_last_;
        lines_.push_back(std::make_shared<const std::string>(head + body + tail));
        body.clear();
    };
    for (const std::string* json : jsons) {
        const std::size_t cost = json->size() + 1;
        if (page_full(count, PerLine, used, cost)) {
            close_page(true);
            used = base;
            count = 0;
        }
        if (count > 0) body += ',';
        body += *json;
        used += cost;
        ++count;
    }
    close_page(false);
    built_ = unique;
    return lines_;
}

template class EncodedPages<Tables, TableInfo, &Tables::tables, &TableInfo::id, TABLES_PER_LINE>;
template class EncodedPages<Users, UserInfo, &Users::users, &UserInfo::name, USERS_PER_LINE>;

}  // namespace xq::proto
