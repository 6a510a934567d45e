// Every message of the wire protocol as a plain struct, one per `type`, for both directions.
// Each struct lists its fields once in fields(); the codec (codec.h) encodes and decodes
// through that list, so a message always round-trips. Documented in protocol/PROTOCOL.md.
// The messages live in one header per family, in the order of their dependencies:
#pragma once

#include "protocol/messages_table_info.h"  // TableId, Role, SeatInfo, TableSettings, TableInfo
#include "protocol/messages_session.h"     // hello, welcome, ping, error, notice, accounts
#include "protocol/messages_chat.h"        // chat in the lobby and at tables
#include "protocol/messages_lobby.h"       // table and user lists, create/join/leave, invitations
#include "protocol/messages_table.h"       // snapshot, seats, moves, game over, AI seats
#include "protocol/messages_offers.h"      // draw, takeback and new-game offers
#include "protocol/messages_arbiter.h"     // pause, add time, adjudicate, cancel
#include "protocol/messages_archive.h"     // archived games and whole-game analysis
#include "protocol/messages_tournament.h"  // club tournaments
#include "protocol/messages_book.h"        // the opening explorer and hints
