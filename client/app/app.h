// The desktop client application: owns the window, the loop and the screens (connect,
// lobby, table, review), and wires the network thread, session, board view and input.
#pragma once

#include <SFML/Graphics.hpp>
#include <SFML/Window/Cursor.hpp>

#include <array>
#include <deque>
#include <functional>
#include <map>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/analysis_panel.h"
#include "app/explorer_panel.h"
#include "app/board_view.h"
#include "app/file_chooser.h"
#include "app/imgui_glue.h"
#include "app/input_queue.h"
#include "app/sound_bank.h"
#include "core/client_config.h"
#include "core/client_state.h"
#include "core/controller.h"
#include "core/game_export.h"
#include "core/position_editor.h"
#include "core/script.h"
#include "core/session.h"
#include "core/strings.h"
#include "net/net_client.h"

#if XQ_HAVE_LAN_DISCOVERY
#include <future>

#include "net/lan_discovery.h"
#endif

namespace xq::client {

struct AppOptions {
    std::string connect;        // "host:port": connect at start instead of showing the form
    std::string name;
    std::string password;       // sent in hello.password (servers started with --password)
    std::string script;         // file of scripted actions
    std::string screenshot;     // saved when the script ends (then the client exits)
    int bench_frames = 0;       // render this many frames offline and print frame times
    int play_ai = 0;            // create a table as Red and ask the AI (this level) for Black
    std::string review;         // open this PGN file in the review screen at start
    std::string discovery_address;  // where LAN queries go (else $XQ_DISCOVERY_ADDR, else broadcast)
    unsigned width = 1200, height = 860;
    bool mute = false;
    Lang lang = Lang::Chinese;
    int theme = 0;
    std::optional<MoveNotation> notation;  // from the config file
    std::string last_server;  // prefills the connect form's address
};

class App {
public:
    explicit App(AppOptions options);
    // Returns the process exit code.
    int run();

private:
    enum class Screen { Connect, Lobby, Table, Review };
    enum class StepResult { Done, Wait, Fail };

    struct Layout {
        float board_x, board_y, board_w, board_h;  // the board area (without plates)
        float plate_h;
        float panel_x, panel_w;
    };

    bool init(std::string& error);
    void frame_events();
    // The low-time warning: a tick each second while our own clock runs under 10 s.
    void low_time_tick();
    // Automatic reconnect after a lost connection: tries again with a growing pause
    // (0.5 s doubling to 8 s), keeping the chats, until it is back or the player stops it.
    void schedule_reconnect(const std::string& why);
    void reconnect_tick();
    void ui_reconnect_banner();
    bool reconnecting_ = false;
    int reconnect_attempt_ = 0;
    float reconnect_at_ = 0;
    std::string reconnect_why_;
    std::deque<ChatLine> kept_table_chat_;
    int kept_table_id_ = -1;
    void handle_event(const sf::Event& e);
    void pump_network();
    void handle_cue(const Cue& c);
    void render();
    bool needs_redraw() const;

    // Drawing a frame (app_draw.cpp).
    Layout layout() const;
    BoardGeometry board_geometry() const;
    void draw_table_board(const Layout& L);
    void draw_plate(Color side, float x, float y, float w, float h);
    void draw_banner(const BoardGeometry& g);
    void draw_paused(const BoardGeometry& g);  // the arbiter paused the game
    void draw_toast(const Layout& L);

    // The screens, a file each: app_connect.cpp, app_lobby.cpp, app_table.cpp, app_review.cpp;
    // the create-table dialog (app_create.cpp) and the dialogs over them (app_dialogs.cpp).
    void ui_connect();
    void ui_lobby();
    void ui_lobby_tables_wide();
    void ui_lobby_tables_narrow();
    float lobby_wide_min_width() const;  // the window's list needs this much for the wide layout
    // A listed table's Sit as Red, Sit as Black and Watch buttons, in fixed slots of one
    // width (side by side or one a line), and where they were drawn (`locate row ID SLOT`,
    // `expect row_buttons aligned`).
    void ui_row_buttons(const TableSummary& tb, bool one_line);
    float row_button_width() const;
    std::string row_buttons_problems() const;
    struct RowButton {
        int table;
        std::string slot;  // red, black, watch
        float x0, y0, x1, y1;
    };
    std::vector<RowButton> row_buttons_;
    std::array<float, 4> tables_rect_{};  // the table list's visible area (x0, y0, x1, y1)
    bool narrow_lobby_ = false;
    // Each listed table's row as the last frame drew it (`expect lobby_rows fit`): from its top
    // to the bottom of its lowest item, and the texts drawn wider than their cells.
    struct LobbyRow {
        int table;
        float top, bottom;
    };
    std::vector<LobbyRow> lobby_rows_;
    std::string lobby_cut_;
    float lobby_line_h_ = 0, lobby_spacing_ = 0;  // a text line's height, the space between lines
    // A table's row of either layout begins: its first cell (the number), the next one current.
    void lobby_row_start(int table);
    void lobby_row_item();  // the item just drawn belongs to the current row
    // One cell's line of text cut to the cell's width with "…" (the whole text on hover).
    void lobby_cell_text(const std::string& text, bool disabled);
    std::string lobby_rows_problems() const;
    void ui_table();
    void ui_review();
    void ui_settings();
    void ui_dialogs();
    void ui_create_table();
    void ui_archive();
    void open_archive();
    void open_review_from_archive();
    void ui_seat_notices();
    void ui_after_game(const TableState& tb);
    void ui_notation_choice();  // the move list's notation, at the table and in Review
    // The Hint (提示) button of a player where hints are given, in the place of the game's
    // greyed New game (false: not drawn); it names the hint once shown (app_explorer.cpp).
    bool ui_hint(bool playing, float width);
    void ui_ai_request(const Layout& L, Color empty);
    void ui_invite_to_watch(const std::vector<const UserEntry*>& idle);
    void send_create_table(const std::string& name, CreateSeat seat, bool with_rules);
    void ui_move_list(const std::vector<MoveEntry>& moves, int highlight_ply, bool clickable);
    void ui_chat(std::deque<ChatLine>& lines, char* input, std::size_t input_size, bool table);

    void start_connect(const std::string& address);
    void send_outbox();
    void apply_intent(const Intent& i);
    // A short message over the board, worded when drawn: switching the language changes
    // it too.
    using Wording = std::function<std::string(Lang)>;
    void toast(Wording make);
    void toast(Str id, std::string arg = {}, std::string arg2 = {});
    std::string toast_text() const { return toast_make_ ? toast_make_(lang_) : std::string(); }
    void open_review_from_table();
    bool import_pgn(const std::string& path, std::string& error);
    void ui_import_pgn();
    // Endgame challenges (app_endgames.cpp).
    void ui_endgames();
    void ui_endgame_goal();  // the table panel's line: the challenge and its goal
    // The Tournaments window (app_tournaments.cpp): what it drew last frame (`expect
    // tourney`) and where its controls stood (`locate tourney CONTROL`, for a real mouse).
    void open_tournaments();
    void ui_tournaments();
    void ui_tourney_list();
    void ui_tourney_detail(const proto::Tournament& tn);
    void ui_tourney_standings(const proto::Tournament& tn);
    void ui_tourney_crosstable(const proto::Tournament& tn);
    void ui_tourney_pairings(const proto::Tournament& tn, bool director);
    void create_tournament(const std::string& name);
    void tick_tournaments();
    void tourney_text(const std::string& text, bool disabled = false);
    bool tourney_button(const std::string& control, const char* label, bool small = false);
    std::optional<PointF> tourney_control(const std::string& control) const;
    // Whether an arbiter has paused the game at this tournament table (as last reported).
    bool board_paused(proto::TableId table) const;
    // The director's tools at a board (app_director.cpp).
    void ui_tourney_arbiter(const proto::Tournament& tn);
    void arbiter_act(const proto::TournamentBoard& b, proto::ArbiterKind action);
    bool tourney_radio(const std::string& control, const char* label, bool active);
    // The position editor (app_editor.cpp).
    void ui_editor();
    void tick_editor();
    void editor_apply(FenError e);
    void editor_start_game(bool against_ai);
    std::string editor_reason(FenError e) const;
    void tick_endgame();
    bool start_endgame(const std::string& id);
    void load_endgame_progress();
    void save_endgame_progress(const std::string& id, bool tried, bool solved);
    void set_review_ply(int ply);
    bool game_in_progress_for_me() const;
    void request_close();
    void load_recent();
    void save_recent(const std::string& address);

    bool load_script(std::string& error);
    void run_script();
    StepResult step(const ScriptAction& a);
    // A verb of the lobby's windows or the review's controls (nullopt: not one of them,
    // app_script_windows.cpp), and `expect` (app_script_expect.cpp).
    std::optional<StepResult> step_window(const ScriptAction& a, float waited_ms);
    StepResult step_expect(const ScriptAction& a, float waited_ms);
    void script_fail(const std::string& why);
    bool click_square(Square s, Intent& out);
    void save_screenshot(const std::string& path);

    int bench();  // app_bench.cpp
    // The benchmark's breakdown: where a frame's time goes (each stage ends with glFinish).
    enum class Stage { Clear, Board, Plates, GuiBuild, GuiRender, Toast, Present, Count };
    void stage_start();
    void stage_mark(Stage s);
    bool stage_timing_ = false;
    std::array<double, std::size_t(Stage::Count)> stage_ms_{};
    std::chrono::steady_clock::time_point stage_t_{};

    const char* t(Str id) const { return tr(lang_, id); }
    std::string t(Str id, std::initializer_list<std::string_view> args) const { return tr(lang_, id, args); }
    float now() const { return clock_.getElapsedTime().asSeconds(); }

    AppOptions opt_;
    sf::RenderWindow window_;
    ImGuiGlue gui_;
    InputQueue input_;  // window events not yet given to a frame
    BoardView view_;
    SoundBank sounds_;
    NetClient net_;
    ClientState state_;
    Session session_{state_};
    Controller ctl_;
    Screen screen_ = Screen::Connect;
    Lang lang_;
    MoveNotation notation_ = MoveNotation::Chinese;
    sf::Clock clock_;
    sf::Clock frame_clock_;
    enum class CursorKind { Arrow, Hand, Text };
    void set_cursor(CursorKind k);
    sf::Cursor hand_cursor_, arrow_cursor_, text_cursor_;
    CursorKind cursor_ = CursorKind::Arrow;
    bool board_hand_ = false;  // the pointer is over a movable piece or a legal target
    bool cursors_ok_ = false;
    int dirty_frames_ = 3;
    // When the last frame was drawn: an idle window is drawn again once a second, since
    // SFML reports no X11 Expose (a window uncovered or moved back on screen kept garbage).
    float last_render_at_ = 0;
    int last_clock_second_ = -1;
    int last_tick_second_ = -1;  // the low-time tick played for this second of our clock
    // The colour chosen for the next game against the AI: 0 red, 1 black, 2 random; -1 not
    // chosen (the other colour than now).
    int next_as_ = -1;
    std::string layout_problems_;  // the last frame's layout_overflow(), for `expect fits`
    // The AI thinking area the last frame drew (its two text rows; empty: none), for
    // `expect thinking` and `expect thinking_moves`.
    std::string thinking_shown_;
    int thinking_moves_shown_ = 0;
    // Text lines the chat drawn this frame has room for (-1: no chat shown); `expect fits`
    // also fails when a chat is squeezed under CHAT_MIN_LINES.
    float chat_room_lines_ = -1;
    std::int64_t last_grace_second_ = -1;  // the seat countdown shown in the last frame
    // The seat countdown's second now (-1 when none runs): a new second means a redraw.
    std::int64_t grace_second_now() const;
    bool running_ = true;
    int exit_code_ = 0;
    std::string font_path_;

    Wording toast_make_;
    float toast_until_ = 0;

    // Connect screen.
    char nick_[64] = {};
    char address_[128] = "127.0.0.1:5050";
    char password_[128] = {};
    bool focus_password_ = false;  // bad_password: put the cursor in the password field
    std::vector<std::string> recent_;
    std::string connect_status_;
    std::string pending_address_;
    // A reconnect to the same server under the same name presents the resume token, so the
    // server can give back the seat of a dropped connection.
    std::string resume_token_, resume_address_, resume_name_;
    // client.conf in the XDG config folder ("" when there is none): recent servers, seat
    // tokens, nickname and the settings below, saved when they change.
    std::filesystem::path config_file_;
    struct Prefs {
        Lang lang = Lang::Chinese;
        int theme = 0;
        MoveNotation notation = MoveNotation::Chinese;
        bool sound = true;
        bool operator==(const Prefs&) const = default;
    };
    Prefs saved_prefs_;
    bool sound_pref_ = true;  // the player's choice (--mute silences one run, not the setting)
    Prefs current_prefs() const;
    void save_prefs_if_changed();
    void ui_lan();
    void start_lan_search();
    bool lan_searching() const;
    int lan_server_count() const;
#if XQ_HAVE_LAN_DISCOVERY
    // The probe blocks for its whole wait, so it runs on its own thread.
    std::future<ProbeResult> lan_probe_;
    std::vector<FoundServer> lan_servers_;
    std::string lan_status_;
#endif

    // Lobby and table.
    char lobby_chat_[256] = {};
    char table_chat_[256] = {};
    // The create-table dialog: its form, whether it is open, and a refusal to show in it.
    CreateTableForm create_form_;
    bool create_open_ = false;
    bool create_sent_ = false;
    Wording create_error_;
    // The game archive window (lobby): open, its player filter, its last refusal.
    bool archive_open_ = false;
    std::string archive_filter_;
    Wording archive_error_;
    // The Endgames window, the challenge whose table was asked for, the one being played
    // (its table, whether the AI was asked to defend, whether its result was recorded), and
    // the progress as client.conf keeps it.
    bool endgames_open_ = false;
    std::string endgame_pending_;
    std::string endgame_active_;
    int endgame_table_ = -1;
    bool endgame_ai_asked_ = false;
    bool endgame_done_ = false;
    std::map<std::string, ClientConfig::EndgameProgress> endgame_progress_;
    // The Tournaments window: open, the tournament shown (0: the list), its tab (standings,
    // crosstable, pairings), the new tournament's form, one we asked to create.
    bool tournaments_open_ = false;
    std::uint32_t tourney_shown_ = 0;
    int tourney_tab_ = 0;
    char tourney_name_[64] = {};
    int tourney_format_ = 0, tourney_rounds_ = 3, tourney_ai_ = 0, tourney_ai_level_ = 3;
    int tourney_forfeit_ = proto::DEFAULT_FORFEIT_SECONDS, tourney_delay_ = 0;  // no-show forfeit (s), spectator delay (plies)
    Wording tourney_error_;  // the server refused create_tournament: why, shown in the form
    // The director's tools: the board they are open at (0: closed), the fields, the action
    // waiting for its confirmation, the form's last problem.
    int tourney_arbiter_board_ = 0;
    ArbiterForm tourney_arbiter_;
    char tourney_reason_[256] = {};
    std::optional<proto::ArbiterKind> tourney_confirm_;
    Str tourney_arbiter_problem_ = Str::Ok;
    bool tourney_pgn_save_ = false;  // Save PGN: the chooser opens once the text is whole
    std::string tourney_pgn_text_, tourney_pgn_name_;  // what it saves; the suggested file name
    void save_tourney_pgn(const proto::Tournament& tn);
    bool tourney_create_pending_ = false;
    std::uint32_t tourney_last_created_ = 0;
    std::string tourney_drawn_, tourney_drawn_shown_;
    std::map<std::string, PointF> tourney_controls_, tourney_controls_drawn_, tourney_controls_before_;
    // The position editor: open, its board, the tray's piece (NO_PIECE: the eraser), a drag
    // under way, the FEN field, the last refusal in words, and a pending AI request for the
    // table it opened.
    bool editor_open_ = false;
    PositionEditor editor_;
    Piece editor_tool_ = NO_PIECE;
    Square editor_drag_from_ = SQ_NONE;
    bool editor_flipped_ = false;
    std::string editor_fen_input_;
    std::string editor_message_;
    bool editor_ai_pending_ = false;
    Color editor_ai_side_ = BLACK;
    bool script_rules_ = false;  // the script's `settings` filled the form: `create` sends it
    int ai_level_ = 5;
    int ai_engine_ = 0;  // 0: the built-in AI, else welcome.engines[ai_engine_ - 1]
    std::string invite_pick_;  // the invite list's choice (its first name when this one is not in it)
    // An open invite list's users, asked of the server as it opens and every
    // INVITEES_REFRESH_S while open (the server tells players at a table nothing of the lobby).
    static constexpr float INVITEES_REFRESH_S = 1.f;
    static constexpr float INVITEES_CLOSED_REFRESH_S = 3.f;  // a closed list naming someone
    float invitees_asked_at_ = -1e9f;
    void keep_invitees_fresh(bool opening, float every_s = INVITEES_REFRESH_S);
    std::string invite_preview_;  // the name the invite list shows (empty: none), `expect invite_preview`
    bool confirm_leave_ = false;
    bool confirm_quit_ = false;
    bool confirm_resign_ = false;
    bool scroll_moves_ = false;
    bool scroll_chat_ = false;

    // Copy and save (table and Review), the file chooser (Open PGN, Save PGN/FEN).
    enum class ChooserFor { OpenPgn, SavePgn, SaveFen, SaveTourneyPgn };
    GameRecord table_record() const;
    void ui_export_button(const GameRecord& record, const Position& shown);
    float export_button_width() const;
    void open_chooser(ChooserFor what, std::string name = {});
    void chooser_done(const std::filesystem::path& path);
    void copy_text(const std::string& text, Str done);
    FileChooser chooser_;
    ChooserFor chooser_for_ = ChooserFor::OpenPgn;
    std::filesystem::path last_folder_;  // where the chooser opens next (the last one used)
    GameRecord export_record_;           // what Save PGN writes
    std::string export_fen_;             // what Save FEN writes

    // Review.
    GameRecord review_record_;  // the reviewed game's players, result and moves (for export)
    bool review_flipped_ = false;
    Game review_game_;
    std::vector<MoveEntry> review_moves_;
    int review_ply_ = 0;
    Position review_pos_;
    Screen review_return_ = Screen::Table;
    char pgn_path_[512] = {};
    std::string review_title_;
    std::int64_t review_game_id_ = 0;  // the archived game under review (0: not from the archive)
    AnalysisPanel analysis_panel_;
    std::optional<PointF> analysis_tab_;  // the review's Analysis tab as last drawn (for `locate`)
    PointF analysis_tab_before_;          // where the tab was in the frame before
    // Whether state_.analysis is of the reviewed game (AnalysisPanel::of_game).
    bool review_analysed() const;
    Move review_arrow_;                   // the best move the board showed as an arrow last frame
    Move table_arrow_;  // the hint drawn on the table's board (none: no hint shown)
    // The opening explorer (app_explorer.cpp): its tab in Review (a click on a move plays it:
    // the game's next move steps on, another one starts a variation that sets the rest of the
    // game aside until "Back to the game"), and in the spectators' move list.
    ExplorerPanel explorer_panel_;
    std::optional<PointF> explorer_tab_;
    PointF explorer_tab_before_;
    // Controls the last frame drew wholly in sight (not scrolled away, not cut by their
    // window's edge), by name, for `locate NAME`: mark_in_sight(NAME) after drawing one.
    std::map<std::string, PointF> in_sight_;
    void mark_in_sight(const std::string& name);
    // Sizes the last frame measured: the lobby side panel's part below the players (the
    // list leaves it room), the create dialog's form (it scrolls when taller than the room
    // left) and what is below it (the refusal and the buttons).
    float people_below_h_ = 0;
    ImVec2 create_form_size_{0, 0};
    float create_footer_h_ = 0;
    std::string create_form_at_;  // where the form was scrolled to: top, middle, end, whole (no scrolling)
    std::optional<PointF> hint_button_;  // the table's Hint button as last drawn (for `locate`)
    // The opponent's offer dialog as last drawn: its Accept and Decline buttons (for `locate`).
    std::optional<PointF> offer_accept_, offer_decline_;
    // The invitation dialog as last drawn: its buttons (`locate invitation accept|decline`) and
    // what it said, "FROM TABLE (+N)" or "none" (`expect invitation`).
    std::optional<PointF> invitation_accept_, invitation_decline_;
    std::string invitation_shown_ = "none";
    // Where this frame drew the result band and the offer dialog (empty: not drawn), for
    // `expect offer_clear` (an offer must not hide the result).
    sf::FloatRect band_rect_, offer_rect_;
    sf::FloatRect banner_rect_;  // the reconnect banner as last drawn (`expect banner_clear`)
    // The invite list at the table: its box as last drawn (`locate invitee`), and the names
    // the open list showed (`expect invitees`).
    std::optional<PointF> invite_combo_, invite_button_;
    std::vector<std::string> invitees_shown_;
    bool invitees_open_ = false;  // an invite list was open in the last frame
    std::map<std::string, PointF> invitee_rows_;  // where the open list showed each name (`locate pick NAME`)
    std::vector<MoveEntry> review_set_aside_;  // the game's moves while a variation is shown
    int review_branch_ply_ = -1;               // where the variation left the game (-1: none)
    void ui_review_explorer(float height);
    void ui_spectator_explorer(float height);
    void review_play(Move m);
    void end_review_variation();

    // Script.
    std::vector<ScriptAction> script_;
    std::size_t script_pc_ = 0;
    bool script_active_ = false;
    float step_started_ = 0;
    std::map<std::string, int, std::less<>> baseline_;
    std::string pending_screenshot_;
    std::string script_error_;
    int expect_grace_ms_ = SCRIPT_EXPECT_GRACE_MS;
};

}  // namespace xq::client
