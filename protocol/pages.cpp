#include "protocol/pages.h"

#include "protocol/codec.h"

namespace xq::proto {

namespace {

// Greedy packing: an item's cost is what it adds to an encoded page (its JSON and a comma).
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
        Page& page = pages.back();
        if (!(page.*list).empty() && ((page.*list).size() == per_line || used + cost > MAX_LINE_BYTES)) {
            page.more = true;
            pages.emplace_back();
            used = base;
        }
        (pages.back().*list).push_back(item);
        used += cost;
    }
    return pages;
}

}  // namespace

std::vector<Tables> table_pages(const std::vector<TableInfo>& tables) {
    return paginate(tables, &Tables::tables, TABLES_PER_LINE);
}

std::vector<Users> user_pages(const std::vector<UserInfo>& users) {
    return paginate(users, &Users::users, USERS_PER_LINE);
}

}  // namespace xq::proto
