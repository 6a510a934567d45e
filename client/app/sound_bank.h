// Plays the synthesised effects through SFML audio; silent when muted.
#pragma once

#include <SFML/Audio.hpp>

#include <vector>

#include "core/sound_synth.h"

namespace xq::client {

class SoundBank {
public:
    // Builds the buffers; false when muted (nothing is touched in the audio system then).
    void init(bool enabled);
    void play(SoundKind kind);
    bool enabled() const { return enabled_; }
    void set_enabled(bool on);
    // False once opening the audio device failed: sound stays off without error spam.
    bool available() const { return available_; }

private:
    static constexpr int KINDS = 6;
    static constexpr int VOICES = 4;
    bool enabled_ = false;
    bool loaded_ = false;
    bool available_ = true;
    // Created on first enable: constructing SFML audio objects opens the audio device.
    std::vector<sf::SoundBuffer> buffers_;
    std::vector<sf::Sound> voices_;
    int next_voice_ = 0;
};

}  // namespace xq::client
