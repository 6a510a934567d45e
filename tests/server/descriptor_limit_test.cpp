// The descriptor limit against --max-clients: what is needed, the raise to the hard limit,
// and the operator's warning when the limit cannot hold the clients.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include "server/net/descriptor_limit.h"

namespace xq::test {
namespace {

using server::DescriptorLimit;

TEST(DescriptorLimit, NeededCountsClientsReserveAndEngines) {
    EXPECT_EQ(server::descriptors_needed(10'000, 0), 10'000 + server::DESCRIPTOR_RESERVE);
    EXPECT_EQ(server::descriptors_needed(10'000, 4), 10'000 + server::DESCRIPTOR_RESERVE + 4 * server::DESCRIPTORS_PER_ENGINE);
}

TEST(DescriptorLimit, WarningNamesTheNumbersAndTheWayOut) {
    DescriptorLimit low;
    low.needed = 10'064;
    low.soft = 1'024;
    low.hard = 4'096;
    const std::string w = server::descriptor_warning(low, 10'000);
    EXPECT_NE(w.find("1024"), std::string::npos) << w;
    EXPECT_NE(w.find("4096"), std::string::npos) << w;
    EXPECT_NE(w.find("10064"), std::string::npos) << w;
    EXPECT_NE(w.find("--max-clients 10000"), std::string::npos) << w;
    EXPECT_NE(w.find("about 960"), std::string::npos) << w;
    EXPECT_NE(w.find("ulimit"), std::string::npos) << w;
    DescriptorLimit fine = low;
    fine.soft = 20'000;
    EXPECT_EQ(server::descriptor_warning(fine, 10'000), "");
}

TEST(DescriptorLimit, RaisesTheSoftLimitToTheHardOne) {
    rlimit rl{};
    ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
    const auto small = server::raise_descriptor_limit(16);
    EXPECT_TRUE(small.enough());
    ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
    EXPECT_EQ(small.soft, rl.rlim_cur);
    if (rl.rlim_max != RLIM_INFINITY) {
        EXPECT_EQ(rl.rlim_cur, rl.rlim_max);  // raised all the way
        const auto huge = server::raise_descriptor_limit(static_cast<std::uint64_t>(rl.rlim_max) + 1'000);
        EXPECT_FALSE(huge.enough());
        EXPECT_EQ(huge.soft, static_cast<std::uint64_t>(rl.rlim_max));
        EXPECT_NE(server::descriptor_warning(huge, huge.needed - 64), "");
    }
}

}  // namespace
}  // namespace xq::test
