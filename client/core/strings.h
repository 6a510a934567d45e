// Every text the desktop client shows, one table per language (strings_en.cpp,
// strings_zh.cpp). A compile-time check keeps both tables complete and in order.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "core/board_model.h"

namespace xq::client {

enum class Lang { English, Chinese };

#define XQ_CLIENT_STRING_IDS(X) \
    X(AppTitle) X(ConnectTitle) X(Nickname) X(ServerAddress) X(ConnectButton) X(RecentServers) \
    X(LanServers) X(LanRefresh) X(LanNotAvailable) X(LanNone) X(Connecting) X(ConnectFailed) \
    X(Disconnected) X(Language) X(Theme) X(ThemeWood) X(ThemeJade) X(Sound) X(LobbyTitle) \
    X(Tables) X(CreateTable) X(TableName) X(TimeControl) X(NoClock) X(ServerDefault) X(Minutes) X(Increment) \
    X(SitRed) X(SitBlack) X(Spectate) X(Players) X(LobbyChat) X(Send) X(Invite) X(InviteFrom) \
    X(Accept) X(Decline) X(StatusWaiting) X(StatusPlaying) X(StatusFinished) X(Spectators) X(Status) \
    X(Red) X(Black) X(EmptySeat) X(TableChat) X(MoveList) X(Notation) X(Takeback) X(OfferDraw) \
    X(Resign) X(NewGame) X(AskAi) X(AiLevel) X(AiRating) X(Flip) X(Leave) X(Review) X(Thinking) \
    X(DrawOffered) X(TakebackRequested) X(OpponentLeft) X(OpponentReturned) X(ConfirmQuitTitle) \
    X(ConfirmQuitText) X(Yes) X(No) X(GameOver) X(RedWins) X(BlackWins) X(DrawResult) \
    X(ReviewTitle) X(First) X(Prev) X(Next) X(Last) X(ImportPgn) X(PgnPath) X(Back) X(Quit) \
    X(YourTurn) X(TheirTurn) X(InCheck) X(Spectating) X(Table) X(ServerError) X(ResignConfirm) \
    X(Ply) X(Ok) X(NotImplementedByServer) X(WaitingForOpponent) X(Refresh) X(You) X(AiName) \
    X(ReviewGame) X(PgnLoadFailed) X(ReasonGameNotInProgress) X(ReasonSpectator) \
    X(ReasonNotYourTurn) X(ReasonNotYourPiece) X(ReasonEmptySquare) X(ReasonNoLegalMove) \
    X(ReasonWaiting) X(ReasonOwnPiece) X(ReasonKingMove) X(ReasonKingPalace) X(ReasonAdvisor) \
    X(ReasonElephantRiver) X(ReasonElephantEye) X(ReasonElephantMove) X(ReasonHorseLeg) \
    X(ReasonHorseMove) X(ReasonPathBlocked) X(ReasonCannonScreen) X(ReasonStraight) \
    X(ReasonPawn) X(ReasonSelfCheck) X(ReasonGeneralsFace) X(ReasonOther) X(DrawAccepted) \
    X(DrawDeclined) X(TakebackAccepted) X(TakebackDeclined) X(InviteAccepted) X(InviteDeclined) \
    X(NewGameOffered) X(BadAddress) X(BadNickname) X(NotationChinese) X(Resynced) X(Settings) \
    X(Connected) X(Watchers) X(AskAiSeat) X(Level) X(NoTables) X(MoreTables) X(MorePlayers) X(CreateAndSit) X(InviteToTable) X(InviteToWatch) X(InviteWatchWhy) X(NobodyIdle) X(TourneyName) \
    X(ReasonCheckmate) X(StepHint) X(Start) X(ScoreFmt) X(AiThinking) X(EndCheckmate) \
    X(EndStalemate) X(EndPerpetualCheck) X(EndPerpetualChase) X(EndRepetition) X(EndMoveLimit) \
    X(EndMaterial) X(EndResignation) X(EndAgreement) X(EndTimeout) X(EndAbandonment) X(EndEngineFailure) X(EndAdjudication) X(EndCancelled) \
    X(LanEntry) \
    X(UnitMinutes) X(UnitSeconds) X(ClockNone) X(ClockFischer) X(ClockAsian) \
    X(ProblemClockRange) X(ProblemFischerBase) X(ProblemAsianZero) X(ProblemGrace) \
    X(ProblemHoldLevel) X(ClockKindFischer) X(ClockKindAsian) X(Preset) X(Custom) X(BaseMinutes) \
    X(MoveLimitSeconds) X(CountdownSeconds) X(RulesOptions) X(GraceSeconds) X(WhenNoReturn) \
    X(AbandonClaim) X(AbandonAi) X(TakebacksAllowed) X(Handicap) X(HandicapNone) X(HandicapNoneDetail) \
    X(HandicapLeftHorse) X(HandicapLeftHorseDetail) X(HandicapTwoHorses) X(HandicapTwoHorsesDetail) \
    X(HandicapLeftChariot) X(HandicapLeftChariotDetail) X(HandicapTwoChariots) X(HandicapTwoChariotsDetail) \
    X(HandicapChariotHorseSame) X(HandicapChariotHorseSameDetail) X(HandicapChariotHorseOther) \
    X(HandicapChariotHorseOtherDetail) X(HandicapNinePieces) X(HandicapNinePiecesDetail) X(SetUpStart) X(StartAs) X(Create) X(Cancel) \
    X(NoTakebacks) X(SeatKept) X(SeatAbandoned) X(ClaimQuestion) X(ClaimWin) X(KeepWaiting) \
    X(AiHolds) X(Password) X(BuiltinAi) X(Engine) X(EngineName) X(ErrorWithDetail) \
    X(UnreadableLine) X(SnapshotRefused) X(ErrBadVersion) X(ErrBadName) X(ErrNameTaken) \
    X(ErrServerFull) X(ErrRateLimited) X(ErrShuttingDown) X(ErrNoSuchTable) X(ErrNoSuchUser) \
    X(ErrNotAtTable) X(ErrAlreadyAtTable) X(ErrSeatTaken) X(ErrTableFull) X(ErrTooManyTables) \
    X(ErrBadFen) X(ErrNotAllowed) X(ErrGameNotInProgress) X(ErrNotSeated) X(ErrNotYourTurn) \
    X(ErrWrongPly) X(ErrIllegalMove) X(ErrNoOffer) X(ErrOfferPending) X(ErrNothingToTakeBack) \
    X(ErrGameInProgress) X(ErrEmptyText) X(ErrBadSettings) X(ErrBadPassword) X(ErrIdleTimeout) \
    X(ErrNoSuchEngine) X(ErrNoClaim) X(ErrTakebacksOff) X(ClockSettings) \
    X(GameArchive) X(ArchiveFilter) X(ArchiveSearch) X(ArchiveOlder) X(ArchiveEmpty) \
    X(ArchiveLoading) X(ArchiveUnfinished) X(ArchiveColResult) X(ArchiveColPlies) \
    X(ArchiveColDate) X(ArchiveBadRecord) X(ErrNoSuchGame) X(ErrNoArchive) X(Close) \
    X(Reconnecting) X(Reconnected) X(StopReconnecting) \
    X(NameRating) \
    X(WaitingDrawAnswer) X(WaitingTakebackAnswer) X(WaitingNewGameAnswer) X(NowRed) X(NowBlack) \
    X(DefaultTableName) X(ReasonInCheck) X(ServerNotice) X(Withdraw) X(DrawWithdrawn) X(TakebackWithdrawn) X(NewGameWithdrawn) X(ArbiterPaused) X(ArbiterResumed) X(ArbiterAddTimeRed) X(ArbiterAddTimeBlack) X(ArbiterAdjudicated) X(ArbiterCancelled) X(PausedByArbiter) X(PausedClocksStopped) X(PlayAs) X(ColourRandom) X(NextGameAs) \
    X(ErrAccountRequired) X(ErrBadLogin) X(ErrWeakPassword) X(ErrBanned) \
    X(ErrNoSuchTournament) X(ErrAlreadyEntered) X(ErrEntriesClosed) \
    X(Endgames) X(EndgamesTitle) X(EndgameGoalWin) X(EndgameGoalDraw) X(EndgameTried) \
    X(EndgameSolved) X(EndgamePlay) X(EndgameSolvedToast) X(EndgameNotSolvedToast) \
    X(EndgameTableName) X(EndgameProgress) \
    X(EditorButton) X(EditorTitle) X(EditorEraser) X(EditorHint) X(EditorSideToMove) X(EditorStart) \
    X(EditorClear) X(EditorLoadFen) X(EditorCopyFen) X(EditorFenCopied) X(EditorLegal) X(EditorPlayAi) \
    X(EditorOpenTable) X(EditorTableName) \
    X(DetailClockFormat) X(DetailClockRange) X(DetailClockZero) X(DetailClockUnknown) \
    X(DetailNoAi) X(DetailNoSpectatorDelay) X(DetailFenEmpty) X(DetailFenBadRankCount) \
    X(DetailFenBadFileCount) X(DetailFenUnknownPiece) X(DetailFenMissingKing) X(DetailFenTooManyKings) \
    X(DetailFenTooManyPieces) X(DetailFenBadKingSquare) X(DetailFenBadAdvisorSquare) X(DetailFenBadElephantSquare) \
    X(DetailFenBadPawnSquare) X(DetailFenBadSideToMove) X(DetailFenBadCounter) X(DetailFenSideNotToMoveInCheck) \
    X(DetailFenTrailingGarbage) X(DetailNoRated) X(DetailRatedNeedsClock) \
    X(OpenPgnTitle) X(SaveFileTitle) X(FolderUp) X(FolderHome) \
    X(FolderEmpty) X(CannotOpen) X(ReplaceFile) X(OpenButton) \
    X(SaveButton) X(FileName) X(ExportMenu) X(CopyFen) \
    X(CopyPgn) X(SavePgn) X(SaveFen) X(CopiedFen) \
    X(CopiedPgn) X(SavedTo) X(SaveFailed) X(OpenPgn) \
    X(Captured) \
    X(ExplorerTab) X(ExplorerMove) X(ExplorerGames) X(ExplorerBook) X(ExplorerResults) X(ExplorerResultsShort) X(ExplorerLoading) \
    X(ExplorerEmpty) X(ExplorerClosed) X(ExplorerOffline) X(ExplorerMore) X(ExplorerTip) X(ExplorerNoResult) \
    X(ExplorerBackToGame) X(ExplorerVariation) \
    X(Tourneys) X(TourneyTitle) X(TourneyNone) X(TourneyRoundRobin) X(TourneySwiss) X(TourneyOpen) X(TourneyRunning) X(TourneyFinished) X(TourneyBye) X(TourneyDirector) X(TourneyRoundOf) X(TourneyEntrants) X(TourneyJoin) \
    X(TourneyLeave) X(TourneyStart) X(TourneyView) X(TourneyStandings) X(TourneyCrosstable) X(TourneyPairings) X(TourneyPlayer) X(TourneyPoints) X(TourneyBuchholz) X(TourneySb) X(TourneyWins) X(TourneyGames) X(TourneyBoard) \
    X(TourneyResult) X(TourneyWatch) X(TourneyPause) X(TourneyResume) X(TourneyYouDirect) X(TourneyYouEntered) X(TourneyCreate) X(TourneyAiEntrants) X(TourneyRounds) X(TourneyByes) X(TourneyNoRound) X(TourneyBack) X(TourneyFormatLabel) X(TourneyStateLabel) \
    X(TourneyForfeitLabel) X(TourneyDelayLabel) X(TourneyDelayHint) X(TourneyProblemForfeit) X(TourneyProblemDelay) X(TourneyForfeitAfter) X(TourneyDelayShown) X(TourneyLive) \
    X(TourneySavePgn) X(TourneyPgnFetching) X(TourneyPgnEmpty) X(TourneyPgnFailed) X(ErrNoTourneyPgn) \
    X(TourneyArbiter) X(ArbiterPanelTitle) X(ArbiterAddTime) X(ArbiterSeconds) X(ArbiterNoClock) X(ArbiterAdjudicate) X(ArbiterReason) X(ArbiterCancelGame) X(ArbiterConfirmAdjudicate) X(ArbiterConfirmCancel) X(ArbiterProblemSeconds) X(ArbiterProblemReason) X(ArbiterPausedMark) X(ErrArbiterNotAllowed) \
    X(DetailNoHints) X(HintsAllowed) X(HintsMark) X(HintButton) X(HintTip) X(HintThinking) X(HintShown) X(HintUsedRed) X(HintUsedBlack) X(ErrHintNotAllowed) \
    X(InviteWaits) X(MoreInvitations)

enum class Str {
#define XQ_ENUM(name) name,
    XQ_CLIENT_STRING_IDS(XQ_ENUM)
#undef XQ_ENUM
        Count
};

constexpr int STRING_COUNT = int(Str::Count);

struct StringEntry {
    Str id;
    const char* text;
};

// The text of `id` in `lang` (UTF-8). Never null.
const char* tr(Lang lang, Str id);
// Replaces each "{}" in order with the next argument.
std::string format(std::string_view pattern, std::initializer_list<std::string_view> args);
std::string tr(Lang lang, Str id, std::initializer_list<std::string_view> args);
// The reason a game ended, from its stable name ("checkmate"); Ok when unknown.
Str end_reason_string(std::string_view reason_name);
// The message shown when a move is refused.
Str reason_string(IllegalReason r);
// A refused move's explanation in `lang` (the toast the player sees).
std::string refusal_text(Lang lang, IllegalReason r);
// The short, localized meaning of a protocol error code ("seat_taken"); ServerError when the
// code has no text of its own. `request` refines it (not_allowed for request_takeback).
Str error_code_string(std::string_view code, std::string_view request = {});
// The server's detail code of bad_settings / bad_fen ("clock_range", "bad_king_square"; see
// protocol/errors.h) in words; ServerError when it has none.
Str error_detail_string(std::string_view code, std::string_view detail);
// What the player sees for a server error: the localized meaning, then its detail in the same
// language when the server sent a detail code the client knows, else (English UI only) the
// server's English words.
std::string server_error_text(Lang lang, std::string_view code, std::string_view request, std::string_view message,
                              std::string_view detail = {});
// Stable identifier of a string id ("AppTitle"), for tests and diagnostics.
std::string_view string_id_name(Str id);

// Compile-time check that a language table lists every id once, in enum order.
template <std::size_t N>
constexpr bool table_complete(const StringEntry (&t)[N]) {
    if (N != std::size_t(STRING_COUNT)) return false;
    for (std::size_t i = 0; i < N; ++i)
        if (t[i].id != Str(i) || t[i].text == nullptr || t[i].text[0] == '\0') return false;
    return true;
}

const StringEntry* english_table();
const StringEntry* chinese_table();

}  // namespace xq::client
