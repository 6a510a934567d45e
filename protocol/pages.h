// Long lists split into lines that each stay within MAX_LINE_BYTES: the `tables` and `users`
// replies, whatever the names' lengths (a line's size is measured, not guessed from counts).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "protocol/limits.h"
#include "protocol/messages.h"

namespace xq::proto {

// Every page but the last has `more` set; an empty list gives one empty page. The pages
// together hold the items in their order; each encodes to at most MAX_LINE_BYTES bytes and
// holds at most TABLES_PER_LINE / USERS_PER_LINE items.
std::vector<Tables> table_pages(const std::vector<TableInfo>& tables);
std::vector<Users> user_pages(const std::vector<UserInfo>& users);

// The encoded lines of a list's pages, kept from one call to the next: a server answers every
// login with the whole table and user lists, and encoding them afresh per login was its top
// cost under load (docs/scale.md). The same list again returns the same lines; a changed list
// encodes again only the items that changed and packs the pages anew. An item's JSON is kept
// only while the item compares equal, so nothing can go stale. The last list is walked in
// step with the new one (an item added, removed or changed costs O(1)); when the order changes
// much, the kept items are found by KeyMember (a table's id, a user's name). The lines are
// byte for byte encode_line() of table_pages() / user_pages(), each ending in '\n'.
template <class Page, class Item, std::vector<Item> Page::*List, auto KeyMember, std::size_t PerLine>
class EncodedPages {
public:
    using Line = std::shared_ptr<const std::string>;

    EncodedPages();
    const std::vector<Line>& lines(std::vector<Item> items);

private:
    using Key = std::remove_cvref_t<decltype(std::declval<const Item&>().*KeyMember)>;
    struct Encoded {
        Item item;
        std::string json;
    };

    std::string encode_item(const Item& item) const;
    bool unchanged(const std::vector<Item>& items) const;
    std::vector<Encoded> reuse_or_encode(std::vector<Item>& items);
    void pack(const std::vector<Encoded>& entries);

    // A page's line with an empty list, cut at its "[]": every page is head + items + tail.
    std::string head_more_, tail_more_, head_last_, tail_last_;
    std::string empty_;        // encode() of an empty page without `more`
    std::size_t list_at_ = 0;  // where an item's JSON starts in encode() of a one-item page
    bool built_ = false;       // lines_ answer entries_ (false: nothing yet)
    std::vector<Encoded> entries_;  // the last list, in its order, with each item's JSON
    std::vector<Line> lines_;
};

using TablePageLines = EncodedPages<Tables, TableInfo, &Tables::tables, &TableInfo::id, TABLES_PER_LINE>;
using UserPageLines = EncodedPages<Users, UserInfo, &Users::users, &UserInfo::name, USERS_PER_LINE>;
extern template class EncodedPages<Tables, TableInfo, &Tables::tables, &TableInfo::id, TABLES_PER_LINE>;
extern template class EncodedPages<Users, UserInfo, &Users::users, &UserInfo::name, USERS_PER_LINE>;

}  // namespace xq::proto
