// Chat lines in the lobby or at a table (chat, both ways). Part of messages.h; documented
// in protocol/PROTOCOL.md (Chat).
#pragma once

#include <string>
#include <string_view>

#include "protocol/messages_table_info.h"

namespace xq::proto {

enum class ChatScope { Lobby, Table };      // "lobby", "table"

struct ChatSend {
    static constexpr std::string_view TYPE = "chat";
    ChatScope scope = ChatScope::Lobby;
    TableId table = 0;  // required for scope "table"
    std::string text;
    template <class F> void fields(F& f) {
        f("scope", scope);
        f.opt("table", table);
        f("text", text);
    }
};

struct ChatLine {
    static constexpr std::string_view TYPE = "chat";
    ChatScope scope = ChatScope::Lobby;
    TableId table = 0;
    std::string from;
    std::string text;
    template <class F> void fields(F& f) {
        f("scope", scope);
        f.opt("table", table);
        f("from", from);
        f("text", text);
    }
};

}  // namespace xq::proto
