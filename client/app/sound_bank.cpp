#include "app/sound_bank.h"

namespace xq::client {

void SoundBank::init(bool enabled) { set_enabled(enabled); }

void SoundBank::set_enabled(bool on) {
    enabled_ = on;
    if (!on || loaded_) return;
    // The audio device opens lazily on the first buffer, so a muted client never touches it.
    buffers_.resize(KINDS);
    voices_.resize(VOICES);
    for (int k = 0; k < KINDS; ++k) {
        const auto samples = synthesize(SoundKind(k));
        buffers_[std::size_t(k)].loadFromSamples(samples.data(), samples.size(), 1, SAMPLE_RATE);
    }
    loaded_ = true;
}

void SoundBank::play(SoundKind kind) {
    if (!enabled_ || !loaded_) return;
    sf::Sound& v = voices_[std::size_t(next_voice_)];
    next_voice_ = (next_voice_ + 1) % VOICES;
    v.setBuffer(buffers_[std::size_t(kind)]);
    v.play();
}

}  // namespace xq::client
