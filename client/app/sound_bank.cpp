#include "app/sound_bank.h"

#include <SFML/System/Err.hpp>
#include <fcntl.h>
#include <unistd.h>

#include <iostream>
#include <sstream>

namespace xq::client {

namespace {

// While alive: SFML's error stream goes to a string and file descriptor 2 (where ALSA and
// OpenAL print) to /dev/null, so a machine without sound says so once, not hundreds of times.
class QuietAudio {
public:
    QuietAudio() : old_buf_(sf::err().rdbuf(caught_.rdbuf())) {
        std::cerr.flush();
        saved_fd_ = ::dup(2);
        if (const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC); null >= 0) {
            ::dup2(null, 2);
            ::close(null);
        }
    }
    ~QuietAudio() {
        if (saved_fd_ >= 0) {
            ::dup2(saved_fd_, 2);
            ::close(saved_fd_);
        }
        sf::err().rdbuf(old_buf_);
    }
    QuietAudio(const QuietAudio&) = delete;
    QuietAudio& operator=(const QuietAudio&) = delete;
    std::string text() const { return caught_.str(); }

private:
    std::ostringstream caught_;
    std::streambuf* old_buf_;
    int saved_fd_ = -1;
};

}  // namespace

void SoundBank::init(bool enabled) { set_enabled(enabled); }

void SoundBank::set_enabled(bool on) {
    enabled_ = on && available_;
    if (!enabled_ || loaded_) return;
    // The audio device opens lazily on the first buffer, so a muted client never touches it.
    std::string problems;
    {
        const QuietAudio quiet;
        buffers_.resize(KINDS);
        voices_.resize(VOICES);
        for (int k = 0; k < KINDS; ++k) {
            const auto samples = synthesize(SoundKind(k));
            buffers_[std::size_t(k)].loadFromSamples(samples.data(), samples.size(), 1, SAMPLE_RATE);
        }
        problems = quiet.text();
        if (problems.find("audio device") != std::string::npos) {
            // Released while still quiet: their destructors complain about the missing device too.
            voices_.clear();
            buffers_.clear();
        }
    }
    if (problems.find("audio device") != std::string::npos) {
        available_ = false;
        enabled_ = false;
        std::cerr << "xiangqi-client: no audio device could be opened; sound is off\n";
        return;
    }
    if (!problems.empty()) std::cerr << problems;
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
