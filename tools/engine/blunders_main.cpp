// xiangqi-blunders: how often each engine of xiangqi-match's PGN games left material to simple
// tactics, judged by a fixed-depth search of our engine at full strength (blunders.h).
#include "blunders.h"

int main(int argc, char** argv) { return xq::engine::blunders_command(argc, argv); }
