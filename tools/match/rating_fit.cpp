#include "tools/match/rating_fit.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace xq::match {
namespace {

constexpr double ELO_SCALE = 0.0057564627324851142;  // ln(10) / 400

// Solves a * x = b in place (a is n x n, symmetric positive definite here); false if singular.
bool solve(std::vector<std::vector<double>> a, std::vector<double>& b) {
    const std::size_t n = b.size();
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r)
            if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) pivot = r;
        if (std::fabs(a[pivot][col]) < 1e-12) return false;
        std::swap(a[pivot], a[col]);
        std::swap(b[pivot], b[col]);
        for (std::size_t r = 0; r < n; ++r) {
            if (r == col) continue;
            const double f = a[r][col] / a[col][col];
            if (f == 0) continue;
            for (std::size_t k = col; k < n; ++k) a[r][k] -= f * a[col][k];
            b[r] -= f * b[col];
        }
    }
    for (std::size_t i = 0; i < n; ++i) b[i] /= a[i][i];
    return true;
}

}  // namespace

bool read_level_results(std::istream& in, int levels, std::vector<PairResult>& out, std::string& error) {
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        std::string word, extra;
        int high = 0, low = 0;
        PairResult r;
        if (!(words >> word >> high >> low >> r.wins >> r.draws >> r.losses) || word != "level" || (words >> extra) ||
            high < 1 || high > levels || low < 1 || low > levels) {
            error = "line " + std::to_string(n) + ": not \"level HIGH LOW W D L\" with levels 1-" + std::to_string(levels);
            return false;
        }
        r.a = high - 1;
        r.b = low - 1;
        out.push_back(r);
    }
    return true;
}

double expected_score(double gap) { return 1.0 / (1.0 + std::pow(10.0, -gap / 400.0)); }

FitResult fit_ratings(int players, const std::vector<PairResult>& results, const FitOptions& options) {
    FitResult out;
    if (players < 1 || options.anchor < 0 || options.anchor >= players) {
        out.error = "the anchor is not one of the players";
        return out;
    }
    // Games and points per pairing, the prior included; the union-find checks connectivity.
    struct Pairing { int a, b; double games, points_a; };
    std::vector<Pairing> pairings;
    std::vector<int> parent(players);
    std::iota(parent.begin(), parent.end(), 0);
    auto root = [&](int x) { while (parent[x] != x) x = parent[x] = parent[parent[x]]; return x; };
    out.games.assign(players, 0.0);
    for (const PairResult& r : results) {
        if (r.a < 0 || r.a >= players || r.b < 0 || r.b >= players || r.a == r.b) {
            out.error = "a result names an unknown player or a player against itself";
            return out;
        }
        if (r.wins < 0 || r.draws < 0 || r.losses < 0) {
            out.error = "a result has a negative count";
            return out;
        }
        const double n = r.wins + r.draws + r.losses;
        if (n == 0) continue;
        out.games[r.a] += n;
        out.games[r.b] += n;
        pairings.push_back({r.a, r.b, n + options.prior_draws, r.wins + 0.5 * r.draws + 0.5 * options.prior_draws});
        parent[root(r.a)] = root(r.b);
    }
    for (int p = 0; p < players; ++p) {
        if (out.games[p] == 0) {
            out.error = "player " + std::to_string(p) + " played no game";
            return out;
        }
        if (root(p) != root(options.anchor)) {
            out.error = "player " + std::to_string(p) + " is not connected to the anchor by games";
            return out;
        }
    }
    // Unknowns: every rating but the anchor's. Newton steps on the log-likelihood
    // sum over pairings of points_a * ln p + (games - points_a) * ln(1 - p).
    std::vector<int> index(players, -1);
    int unknowns = 0;
    for (int p = 0; p < players; ++p)
        if (p != options.anchor) index[p] = unknowns++;
    out.rating.assign(players, options.anchor_rating);
    std::vector<std::vector<double>> info;  // Fisher information (minus the Hessian)
    for (out.iterations = 1; out.iterations <= 100; ++out.iterations) {
        std::vector<double> grad(unknowns, 0.0);
        info.assign(unknowns, std::vector<double>(unknowns, 0.0));
        for (const Pairing& q : pairings) {
            const double p = expected_score(out.rating[q.a] - out.rating[q.b]);
            const double g = ELO_SCALE * (q.points_a - q.games * p);
            const double h = ELO_SCALE * ELO_SCALE * q.games * p * (1 - p);
            const int ia = index[q.a], ib = index[q.b];
            if (ia >= 0) { grad[ia] += g; info[ia][ia] += h; }
            if (ib >= 0) { grad[ib] -= g; info[ib][ib] += h; }
            if (ia >= 0 && ib >= 0) { info[ia][ib] -= h; info[ib][ia] -= h; }
        }
        std::vector<double> step = grad;
        if (unknowns > 0 && !solve(info, step)) {
            out.error = "the fit is singular";
            return out;
        }
        double largest = 0;
        for (int p = 0; p < players; ++p) {
            if (index[p] < 0) continue;
            // Damped: a first step from equal ratings can overshoot on one-sided pairings.
            const double s = std::clamp(step[index[p]], -400.0, 400.0);
            out.rating[p] += s;
            largest = std::max(largest, std::fabs(s));
        }
        if (largest < 1e-6) break;
    }
    if (out.iterations > 100) {
        out.error = "the fit did not converge";
        return out;
    }
    // Standard errors: the diagonal of the inverse information (the anchor has none).
    out.margin95.assign(players, 0.0);
    for (int p = 0; p < players; ++p) {
        if (index[p] < 0) continue;
        std::vector<double> unit(unknowns, 0.0);
        unit[index[p]] = 1.0;
        if (!solve(info, unit)) {
            out.error = "the fit is singular";
            return out;
        }
        out.margin95[p] = 1.96 * std::sqrt(std::max(0.0, unit[index[p]]));
    }
    out.ok = true;
    return out;
}

}  // namespace xq::match
