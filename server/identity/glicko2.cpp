#include "server/identity/glicko2.h"

#include <algorithm>
#include <cmath>

namespace xq::server {

namespace {

constexpr double SCALE = 173.7178;        // Glicko-2's internal scale per display point
constexpr double CONVERGENCE = 0.000001;  // the paper's epsilon for the volatility iteration
constexpr double PI = 3.14159265358979323846;

double g(double phi) { return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (PI * PI)); }

double expected(double mu, double mu_j, double phi_j) { return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j))); }

}  // namespace

Glicko2Rating glicko2_update(const Glicko2Rating& player, const std::vector<Glicko2Game>& games, double tau) {
    // Step 2: to the Glicko-2 scale.
    const double mu = (player.rating - 1500.0) / SCALE;
    const double phi = player.rd / SCALE;
    const double sigma = player.volatility;
    if (games.empty()) {
        Glicko2Rating out = player;
        out.rd = std::min(GLICKO2_MAX_RD, std::sqrt(phi * phi + sigma * sigma) * SCALE);
        return out;
    }
    // Steps 3 and 4: the estimated variance v and the improvement delta.
    double v_inv = 0.0, sum = 0.0;
    for (const auto& game : games) {
        const double mu_j = (game.opponent_rating - 1500.0) / SCALE;
        const double phi_j = game.opponent_rd / SCALE;
        const double e = expected(mu, mu_j, phi_j);
        v_inv += g(phi_j) * g(phi_j) * e * (1.0 - e);
        sum += g(phi_j) * (game.score - e);
    }
    const double v = 1.0 / v_inv;
    const double delta = v * sum;
    // Step 5: the new volatility, the root of f by the Illinois algorithm.
    const double a = std::log(sigma * sigma);
    auto f = [&](double x) {
        const double ex = std::exp(x);
        const double d = phi * phi + v + ex;
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
    };
    double lo = a, hi;
    if (delta * delta > phi * phi + v) {
        hi = std::log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f(a - k * tau) < 0.0 && k < 1000) ++k;
        hi = a - k * tau;
    }
    double f_lo = f(lo), f_hi = f(hi);
    for (int i = 0; i < 1000 && std::abs(hi - lo) > CONVERGENCE; ++i) {
        const double c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
        const double f_c = f(c);
        if (f_c * f_hi <= 0.0) {
            lo = hi;
            f_lo = f_hi;
        } else {
            f_lo /= 2.0;
        }
        hi = c;
        f_hi = f_c;
    }
    const double sigma_new = std::exp(lo / 2.0);
    // Steps 6 to 8: the new deviation and rating, back on the display scale.
    const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
    const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double mu_new = mu + phi_new * phi_new * sum;
    return Glicko2Rating{SCALE * mu_new + 1500.0, std::min(GLICKO2_MAX_RD, SCALE * phi_new), sigma_new};
}

}  // namespace xq::server
