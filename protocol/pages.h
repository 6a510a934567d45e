// Long lists split into lines that each stay within MAX_LINE_BYTES: the `tables` and `users`
// replies, whatever the names' lengths (a line's size is measured, not guessed from counts).
#pragma once

#include <vector>

#include "protocol/messages.h"

namespace xq::proto {

// Every page but the last has `more` set; an empty list gives one empty page. The pages
// together hold the items in their order; each encodes to at most MAX_LINE_BYTES bytes and
// holds at most TABLES_PER_LINE / USERS_PER_LINE items.
std::vector<Tables> table_pages(const std::vector<TableInfo>& tables);
std::vector<Users> user_pages(const std::vector<UserInfo>& users);

}  // namespace xq::proto
