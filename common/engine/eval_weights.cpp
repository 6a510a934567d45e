#include "eval_weights.h"

// The weights as a flat named vector (the tuner's view of EvalWeights).
namespace xq::engine {

std::vector<int> weights_to_vector(const EvalWeights& w) {
    std::vector<int> v;
    EvalWeights copy = w;
    for_each_entry(copy, copy, [&](const std::string&, const Score& s, const Score&) {
        v.push_back(s.mg);
        v.push_back(s.eg);
    });
    return v;
}

bool weights_from_vector(const std::vector<int>& v, EvalWeights& w) {
    if (v.size() != weights_to_vector(w).size()) return false;
    std::size_t i = 0;
    for_each_entry(w, w, [&](const std::string&, Score& s, Score&) {
        s.mg = v[i++];
        s.eg = v[i++];
    });
    return true;
}

std::vector<std::string> weight_names() {
    std::vector<std::string> names;
    EvalWeights w{};
    for_each_entry(w, w, [&](const std::string& name, const Score&, const Score&) {
        names.push_back(name + ".mg");
        names.push_back(name + ".eg");
    });
    return names;
}

}  // namespace xq::engine
