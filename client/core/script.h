// Scripted mode: a plain-text list of actions the client performs as if a person did,
// for tests and demos. One action per line; '#' starts a comment.
//
//   create red|black|spectator [name...]   create a table and sit
//   join TABLE|last red|black|spectator     sit at (or watch) a listed table
//   move h2e2                               play by clicking the two points on the board
//   drag h2e2                               play by dragging the piece
//   click e3                                click one point (e.g. an illegal target)
//   chat text...                            table chat (lobby chat when not at a table)
//   ai red|black LEVEL [ENGINE]             ask the built-in AI (or a host's engine) to take a seat
//   settings clock=fischer:300+5|default grace=30|default abandon=claim|ai hold=5 takebacks=0|1
//                                           fill the create-table dialog; later creates use it
//                                           (default: the server's, as the dialog starts)
//   tournament create NAME...|view ID|last|ai N LEVEL|join|leave|start|tab standings|crosstable|pairings|watch N
//                                           the Tournaments window's controls (dialog tournaments)
//   locate tourney CONTROL                  print where a Tournaments control is ("join", "start",
//                                           "tab crosstable", "watch 1", "pause 1", "back", "close")
//   locate tab|analyse|graph PLY|explorer_tab|explorer N
//                                           print where a Review control is (Analysis tab, its
//                                           Analyse button, a graph point; Explorer tab, its move N)
//   locate sound|create_table|create_form|create_button|create_cancel|clock_fischer|seat_watch
//                                           print where that lobby control is, once it is wholly
//                                           in sight (the settings' Sound box, the Create table
//                                           button, the create dialog's form and its controls)
//   expect create_form top|middle|end|whole where the create dialog's form is scrolled to
//   expect scrolls WINDOW yes|no            whether that window (people: the lobby's side
//                                           panel) is taller than shown, so it scrolls
//   locate square SQ | window | offer accept|decline
//                                           print where a point of the table's board is (h2),
//                                           the window's top left corner, the offer's buttons
//   expect offer none|draw|takeback|new_game   the opponent's offer waiting for our answer
//   locate row ID red|black|watch           print where a listed table's button is (lobby)
//   expect row_buttons aligned              the lobby list's buttons: inside the list, of one
//                                           width, each in its column (one column when narrow)
//   expect row ID red|black|watch shown|none   whether that button of a listed table is shown
//   expect lobby_rows fit                   each listed table one line (wide list) or three
//                                           (narrow), no text wider than its cell
//   expect offer_clear yes                  the offer dialog leaves the result band uncovered
//   expect banner_clear yes                 the reconnect banner leaves the plates and the side
//                                           panel uncovered (at a table)
//   locate invitation accept|decline, expect invitation FROM TABLE|FROM TABLE (+N)|none
//                                           the lobby's invitation dialog: its buttons, what it
//                                           shows (the newest; N more waiting)
//   locate invitee|invite_button|pick NAME, expect invitees NAME|-NAME
//                                           the table's invite list, its Invite button, NAME
//                                           in the open list; the open list shows NAME (-NAME:
//                                           a list is open without NAME)
//   expect invite_preview NAME|none         the name the invite row shows, open or closed
//   expect flipped yes|no, expect dragging yes|no, expect drag_point X,Y
//                                           the table's board turned; a piece held (there)
//   expect review_ply N, expect explorer_rows N, expect review_variation no|PLY
//                                           the review's ply, the explorer's moves shown, where a
//                                           variation played from the explorer left the game
//   expect tourney TEXT                     the Tournaments window drew TEXT (rows: "1 bob: x | 0 = 0",
//                                           "Board 1: bob - AI level 1 …")
//   dialog create|archive|endgames|editor|tournaments|none
//                                           open or close the create-table dialog, the game
//                                           archive (which lists the server's games), the
//                                           Endgames window or the position editor
//   endgame ID                              play endgame challenge ID (its Play button)
//   editor clear|start|side red|black|place P SQ|remove SQ|fen FEN|play|table
//                                           the position editor's controls (dialog editor)
//   archive first|ID                        open an archived game in the review screen
//   back                                    leave the review screen (its Back button)
//   dialog open_pgn|save_pgn|save_fen       open the file chooser (Open PGN; the Copy/Save
//                                           menu's Save game as PGN / Save position as FEN)
//   choose NAME|PATH                        type NAME in the file chooser and confirm it
//   copy fen|pgn                            the Copy/Save menu's Copy position / Copy game
//   expect clipboard TEXT                   the clipboard holds TEXT; expect review_result
//          Red wins · checkmate|none, expect review_flipped yes|no, expect file_chooser closed,
//          expect captured red|black N          pieces taken by that side (shown on its plate)
//   claim | keep_waiting                    answer the abandoned-seat question
//   drop                                    lose the connection (no leave) and exit
//   clock_check MS                          ask the server for its clocks (sync) and fail
//                                           unless both clocks shown are within MS of them
//   wait TYPE [timeout_ms]                  wait for a server message of TYPE
//   wait_turn [timeout_ms]                  wait until it is our move
//   sleep MS                                keep drawing for MS milliseconds
//   screenshot FILE.png                     save the window
//   expect ply|seat|status|screen|toast|chat|spectators|lan_servers|last_move VALUE, expect move N h2e2
//   expect clock_words|lobby_clock|rules|seat_notice|claim|result|error VALUE,
//   expect connection ready|reconnecting|disconnected, expect lobby_chat TEXT
//   expect endgame ID tried=N solved=0|1   the challenge's progress as client.conf keeps it
//   expect fen FEN                          the table's position
//   expect editor_fen FEN, expect editor_check legal|REASON, expect editor_message TEXT
//   expect fits yes                         every window inside the client window, no content cut
//          expect seat_label red|black TEXT
//          expect thinking TEXT, expect thinking_moves N   the AI thinking area drawn shows
//                                           TEXT / at least N moves of the AI's line
//                                           fail unless the state matches (10 s grace)
//   lang en|zh   theme 0|1   notation chinese|wxf|iccs   flip
//   grace MS                                how long later expectations, joins and moves may
//                                           wait for the state they need (default 10 s)
//   lan                                     search the LAN (the discovery target in force)
//   takeback | draw | resign | newgame | leave | quit
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace xq::client {

constexpr int SCRIPT_DEFAULT_WAIT_MS = 10000;
// An expectation may take this long to come true (state still arriving) before it fails.
constexpr int SCRIPT_EXPECT_GRACE_MS = 10000;

struct ScriptAction {
    std::string verb;
    std::vector<std::string> args;
    std::string rest;  // everything after the verb (chat text)
    int line = 0;
};

// Returns the actions, or an error message naming the line; unknown verbs are errors.
bool parse_script(std::string_view text, std::vector<ScriptAction>& out, std::string& error);

}  // namespace xq::client
