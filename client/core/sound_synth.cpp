#include "core/sound_synth.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace xq::client {

namespace {

struct Mix {
    std::vector<float> buf;
    explicit Mix(double seconds) : buf(std::size_t(seconds * SAMPLE_RATE), 0.f) {}

    // A sine partial with an exponential decay, starting at `at` seconds.
    void tone(double at, double freq, double amp, double decay, double len) {
        const std::size_t start = std::size_t(at * SAMPLE_RATE);
        const std::size_t n = std::size_t(len * SAMPLE_RATE);
        for (std::size_t i = 0; i < n && start + i < buf.size(); ++i) {
            const double t = double(i) / SAMPLE_RATE;
            const double attack = std::min(1.0, t / 0.002);  // no click at the onset
            buf[start + i] += float(amp * attack * std::exp(-t * decay) *
                                    std::sin(2 * std::numbers::pi * freq * t));
        }
    }
    // A burst of low-passed noise: the "knock" of a wooden piece on the board.
    void knock(double at, double amp, double decay, double len, std::uint32_t seed) {
        const std::size_t start = std::size_t(at * SAMPLE_RATE);
        const std::size_t n = std::size_t(len * SAMPLE_RATE);
        double lp = 0;
        for (std::size_t i = 0; i < n && start + i < buf.size(); ++i) {
            seed = seed * 1664525u + 1013904223u;
            const double white = double(seed >> 8) / double(1u << 24) * 2 - 1;
            lp += 0.18 * (white - lp);
            const double t = double(i) / SAMPLE_RATE;
            const double attack = std::min(1.0, t / 0.002);
            buf[start + i] += float(amp * attack * std::exp(-t * decay) * lp);
        }
    }
    std::vector<std::int16_t> done() const {
        float peak = 0;
        for (float v : buf) peak = std::max(peak, std::abs(v));
        const float scale = peak > 0 ? 0.8f * 32767.f / peak : 0.f;
        std::vector<std::int16_t> out(buf.size());
        for (std::size_t i = 0; i < buf.size(); ++i) out[i] = std::int16_t(buf[i] * scale);
        return out;
    }
};

}  // namespace

std::vector<std::int16_t> synthesize(SoundKind kind) {
    switch (kind) {
    case SoundKind::Move: {
        Mix m(0.12);
        m.knock(0, 1.0, 60, 0.12, 7);
        m.tone(0, 420, 0.5, 55, 0.12);
        m.tone(0, 930, 0.2, 80, 0.08);
        return m.done();
    }
    case SoundKind::Capture: {
        Mix m(0.2);
        m.knock(0, 1.0, 45, 0.1, 11);
        m.tone(0, 360, 0.5, 40, 0.1);
        m.knock(0.06, 1.2, 35, 0.14, 23);
        m.tone(0.06, 300, 0.6, 30, 0.14);
        return m.done();
    }
    case SoundKind::Check: {
        Mix m(0.36);
        m.tone(0, 880, 0.6, 9, 0.18);
        m.tone(0.16, 1175, 0.6, 8, 0.2);
        return m.done();
    }
    case SoundKind::GameEnd: {
        Mix m(0.9);
        const double notes[] = {523.25, 659.25, 783.99, 1046.5};
        for (int i = 0; i < 4; ++i) m.tone(0.14 * i, notes[i], 0.5, 4, 0.9 - 0.14 * i);
        return m.done();
    }
    case SoundKind::Notify: {
        Mix m(0.25);
        m.tone(0, 660, 0.5, 14, 0.25);
        m.tone(0, 1320, 0.15, 20, 0.2);
        return m.done();
    }
    case SoundKind::Tick: {  // the low-time warning, once a second
        Mix m(0.06);
        m.knock(0, 0.6, 120, 0.04, 5);
        m.tone(0, 1760, 0.3, 120, 0.04);
        return m.done();
    }
    }
    return {};
}

}  // namespace xq::client
