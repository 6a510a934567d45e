// A fixed-size, zero-initialised array for the engine's big tables (transposition table,
// evaluation cache), aligned to 2 MiB and, on Linux, advised into transparent huge pages:
// every probe of such a table is a random access, and with 4 KiB pages nearly each one also
// misses the TLB (a costly page walk, more so under a hypervisor).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace xq::engine {

template <class T>
class LargeArray {
    static_assert(std::is_trivially_copyable_v<T>, "zeroed memory must be a valid T");

public:
    static constexpr std::size_t ALIGN = std::size_t(2) << 20;

    LargeArray() = default;
    explicit LargeArray(std::size_t n) { reset(n); }

    // Replaces the contents with n zeroed elements.
    void reset(std::size_t n) {
        data_.reset();
        size_ = 0;
        const std::size_t bytes = (n * sizeof(T) + ALIGN - 1) / ALIGN * ALIGN;
        void* p = std::aligned_alloc(ALIGN, bytes);
        if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without huge pages it still works
#endif
        std::memset(p, 0, bytes);
        data_.reset(static_cast<T*>(p));
        size_ = n;
    }
    void clear() { std::memset(static_cast<void*>(data_.get()), 0, size_ * sizeof(T)); }

    std::size_t size() const { return size_; }
    T& operator[](std::size_t i) { return data_.get()[i]; }
    const T& operator[](std::size_t i) const { return data_.get()[i]; }

private:
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::unique_ptr<T, Free> data_;
    std::size_t size_ = 0;
};

}  // namespace xq::engine
