#pragma once
// A fixed-capacity ring buffer of samples, oldest first: the storage of the session's time series (energy
// measurements, the plots' diagnostics, a comparison's divergence).
//
// Design note: the storage is allocated once, a push past capacity overwrites the oldest sample, and index 0 is always
// the oldest sample kept, so a plot walks [0, size()) in time order. A sample is a few dozen doubles, so a capacity of
// thousands costs at most a megabyte; the series are sampled seconds or frames apart, so such a ring spans a long
// session. The name appears in the errors, so a bad index says which series it was asked of.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace gravlab {

template <typename Sample> class SampleRing {
public:
    /// Keeps the last capacity samples; capacity must be at least 1 (std::invalid_argument, naming the series).
    SampleRing(std::size_t capacity, std::string name) : m_samples(capacity), m_name(std::move(name)) {
        if (capacity == 0)
            throw std::invalid_argument(m_name + ": capacity 0 cannot hold a sample; allowed 1 or more");
    }

    /// Appends sample, dropping the oldest one when full.
    void push(const Sample& sample) {
        if (m_size < m_samples.size()) {
            m_samples[(m_oldest + m_size) % m_samples.size()] = sample;
            ++m_size;
            return;
        }
        m_samples[m_oldest] = sample; // full: the newest takes the oldest's slot
        m_oldest = (m_oldest + 1) % m_samples.size();
    }
    void clear() {
        m_oldest = 0;
        m_size = 0;
    }

    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_samples.size(); }
    bool empty() const { return m_size == 0; }
    /// The index-th oldest sample kept (0: the oldest); std::out_of_range unless index < size().
    const Sample& operator[](std::size_t index) const {
        if (index >= m_size)
            throw std::out_of_range(m_name + ": sample " + std::to_string(index) + " asked for, " +
                                    std::to_string(m_size) + " kept");
        return m_samples[(m_oldest + index) % m_samples.size()];
    }
    /// The newest sample; std::out_of_range when there is none.
    const Sample& latest() const { return (*this)[m_size - 1]; }

private:
    std::vector<Sample> m_samples; ///< capacity slots, allocated once
    std::string m_name;
    std::size_t m_oldest = 0; ///< slot of the oldest sample
    std::size_t m_size = 0;
};

} // namespace gravlab
