// A connection's session: hello and welcome, ping and pong, error replies, the server's
// notices, and registered accounts (register, change_password). Part of messages.h;
// documented in protocol/PROTOCOL.md (Handshake; Names, accounts and server notices; Errors).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/errors.h"
#include "protocol/limits.h"
#include "protocol/messages_table_info.h"

namespace xq::proto {

struct Hello {
    static constexpr std::string_view TYPE = "hello";
    std::string name;
    int version = PROTOCOL_VERSION;
    std::string resume;  // optional: a resume token from an earlier welcome
    std::string password;  // required when the server has one (--password)
    std::string account_password;  // logs in to the registered account of `name`
    template <class F> void fields(F& f) {
        f("name", name);
        f("version", version, 0, 1 << 30);
        f.opt("resume", resume);
        f.opt("password", password);
        f.opt("account_password", account_password);
    }
};

struct Welcome {
    static constexpr std::string_view TYPE = "welcome";
    std::string session;       // this connection's session id
    std::string resume_token;  // 128 random bits as 32 hex digits; keep it to reclaim a seat
    std::string server;        // the server's name
    int version = PROTOCOL_VERSION;
    std::string name;          // the nickname as accepted
    bool resumed = false;      // true when hello.resume reattached an earlier session
    std::vector<std::string> engines;  // external engines request_ai may name (besides the built-in)
    bool account = false;      // true when `name` is a registered account this connection logged in to
    std::optional<int> rating;  // the account's Glicko-2 rating (rounded), when logged in
    std::optional<int> rating_rd;  // and its deviation
    std::vector<int> ai_ratings;   // the built-in AI levels' fixed ratings, level 1 first (empty: no AI)
    template <class F> void fields(F& f) {
        f("session", session);
        f("resume_token", resume_token);
        f("server", server);
        f("version", version, 0, 1 << 30);
        f("name", name);
        f.opt("resumed", resumed);
        f.opt("engines", engines);
        f.opt("account", account);
        f.opt("rating", rating, 0, MAX_RATING);
        f.opt("rating_rd", rating_rd, 0, MAX_RATING);
        f.opt("ai_ratings", ai_ratings, 0, MAX_RATING);
    }
};

// Both directions: a client may ping the server, and the server pings a connection it has
// not heard from for a while; the other side answers with pong and the same id.
struct Ping {
    static constexpr std::string_view TYPE = "ping";
    std::int64_t id = 0;  // echoed in pong
    template <class F> void fields(F& f) { f.opt("id", id); }
};

struct Pong {
    static constexpr std::string_view TYPE = "pong";
    std::int64_t id = 0;
    template <class F> void fields(F& f) { f("id", id); }
};

struct Error {
    static constexpr std::string_view TYPE = "error";
    ErrorCode code = ErrorCode::Internal;
    std::string message;  // readable English
    std::string request;  // the type of the request this answers ("" if it had none)
    TableId table = 0;    // the table named by the request, if any
    std::string detail;   // bad_settings, bad_fen: why, as a code (errors.h); "" otherwise
    template <class F> void fields(F& f) {
        f("code", code);
        f("message", message);
        f("request", request);
        f.opt("table", table);
        f.opt("detail", detail);
    }
};

// A notice from the server itself (the operator's broadcast, shutdown warnings): never a
// chat line, so no user can pose as the server whatever name they pick.
struct Notice {
    static constexpr std::string_view TYPE = "notice";
    std::string text;
    template <class F> void fields(F& f) { f("text", text); }
};

// Registers the connection's current name as an account with this password (see Accounts).
struct Register {
    static constexpr std::string_view TYPE = "register";
    std::string password;
    template <class F> void fields(F& f) { f("password", password); }
};

// The answer to `register`: the connection's name is now a registered account.
struct Registered {
    static constexpr std::string_view TYPE = "registered";
    std::string name;
    template <class F> void fields(F& f) { f("name", name); }
};

// Changes the password of the account this connection logged in to.
struct ChangePassword {
    static constexpr std::string_view TYPE = "change_password";
    std::string old_password;
    std::string new_password;
    template <class F> void fields(F& f) {
        f("old", old_password);
        f("new", new_password);
    }
};

// The answer to `change_password`.
struct PasswordChanged {
    static constexpr std::string_view TYPE = "password_changed";
    template <class F> void fields(F&) {}
};

}  // namespace xq::proto
