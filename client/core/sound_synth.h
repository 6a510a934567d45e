// Sound effects made by the program: short mono 16-bit sample buffers synthesised from
// decaying sines and filtered noise, so the client ships no third-party sound files.
#pragma once

#include <cstdint>
#include <vector>

namespace xq::client {

enum class SoundKind { Move, Capture, Check, GameEnd, Notify, Tick };

constexpr unsigned SAMPLE_RATE = 44100;

// Deterministic (fixed noise seed): the same kind always gives the same samples.
std::vector<std::int16_t> synthesize(SoundKind kind);

}  // namespace xq::client
