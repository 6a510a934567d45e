// Long lists split into lines that each stay within MAX_LINE_BYTES: the `tables` and `users`
// replies, whatever the names' lengths (a line's size is measured, not guessed from counts).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "protocol/limits.h"
#include "protocol/messages.h"

namespace xq::proto {

// The lines of one page of a list: `items` are the list's items from place `offset` on, of
// `total` in all. Every line but the last has `more` set; no items give one empty line. The
// lines together hold the items in their order; each encodes to at most MAX_LINE_BYTES bytes,
// holds at most TABLES_PER_LINE / USERS_PER_LINE items, and carries `total` and its first
// item's place as `offset`.
std::vector<Tables> table_pages(const std::vector<TableInfo>& tables, int offset = 0, int total = -1);
std::vector<Users> user_pages(const std::vector<UserInfo>& users, int offset = 0, int total = -1);

// The encoded lines of a page, kept from one call to the next: a server answers every login
// with the first page of the table and user lists, and encoding them afresh per login was its
// top cost under load (docs/scale.md). The same items (at the same offset, of the same total)
// again return the same lines; a change encodes again only the items that changed and packs
// the lines anew. An item's JSON is kept
// only while the item compares equal, so nothing can go stale. The last list is walked in
// step with the new one (an item added, removed or changed costs O(1)); when the order changes
// much, the kept items are found by KeyMember (a table's id, a user's name). The lines are
// byte for byte encode_line() of table_pages() / user_pages(), each ending in '\n'.
template <class Page, class Item, std::vector<Item> Page::*List, auto KeyMember, std::size_t PerLine>
class EncodedPages {
public:
    using Line = std::shared_ptr<const std::string>;

    EncodedPages();
    const std::vector<Line>& lines(std::vector<Item> items, int offset = 0, int total = -1);

private:
    using Key = std::remove_cvref_t<decltype(std::declval<const Item&>().*KeyMember)>;
    struct Encoded {
        Item item;
        std::string json;
    };

    std::string encode_item(const Item& item) const;
    bool unchanged(const std::vector<Item>& items, int offset, int total) const;
    std::vector<Encoded> reuse_or_encode(std::vector<Item>& items);
    void pack(const std::vector<Encoded>& entries);

    std::string empty_;        // encode() of an empty page without `more`
    std::size_t list_at_ = 0;  // where an item's JSON starts in encode() of a one-item page
    bool built_ = false;       // lines_ answer entries_, offset_ and total_ (false: nothing yet)
    int offset_ = 0, total_ = 0;
    std::vector<Encoded> entries_;  // the last list, in its order, with each item's JSON
    std::vector<Line> lines_;
};

using TablePageLines = EncodedPages<Tables, TableInfo, &Tables::tables, &TableInfo::id, TABLES_PER_LINE>;
using UserPageLines = EncodedPages<Users, UserInfo, &Users::users, &UserInfo::name, USERS_PER_LINE>;
extern template class EncodedPages<Tables, TableInfo, &Tables::tables, &TableInfo::id, TABLES_PER_LINE>;
extern template class EncodedPages<Users, UserInfo, &Users::users, &UserInfo::name, USERS_PER_LINE>;

}  // namespace xq::proto
