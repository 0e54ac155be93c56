// SHMEM_TRANSPORT=auto between UCX and libfabric (issue 17): libfabric only
// when UCX has no network faster than tcp (or none at all) while libfabric
// offers a provider on a real fabric; UCX when both have tcp only.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

extern "C" {
#include "transport/choose.h"
}

namespace {

std::string why;

choose_pick pick(std::initializer_list<const char *> ucx, std::initializer_list<const char *> ofi,
                 std::initializer_list<bool> dev = {})
{
    char buf[160];
    const bool *d = dev.size() ? dev.begin() : nullptr;
    if (dev.size()) {
        EXPECT_EQ(dev.size(), ofi.size());
    }
    choose_pick p = choose_network(ucx.begin(), ucx.size(), ofi.begin(), d, ofi.size(), buf,
                                   sizeof buf);
    why = buf;
    return p;
}

} // namespace

TEST(ChooseNetwork, UcxWithAFabricStaysUcx)
{
    EXPECT_EQ(pick({"self", "tcp", "sysv", "posix", "cma", "rc_mlx5", "dc_mlx5"},
                   {"verbs;ofi_rxm", "tcp;ofi_rxm"}),
              CHOOSE_UCX);
    EXPECT_NE(why.find("rc_mlx5"), std::string::npos) << why;
}

TEST(ChooseNetwork, BothTcpOnlyStaysUcx)
{
    EXPECT_EQ(pick({"self", "tcp", "sysv", "posix", "cma"},
                   {"tcp;ofi_rxm", "sockets", "udp;ofi_rxd", "shm"}),
              CHOOSE_UCX);
    EXPECT_NE(why.find("tcp"), std::string::npos) << why;
}

TEST(ChooseNetwork, UcxTcpOnlyTakesLibfabricFabric)
{
    for (const char *prov : {"verbs;ofi_rxm", "efa", "cxi", "opx", "psm2"}) {
        EXPECT_EQ(pick({"self", "tcp", "posix"}, {"tcp;ofi_rxm", prov, "sockets"}), CHOOSE_OFI)
            << prov;
        EXPECT_NE(why.find(prov), std::string::npos) << why;
        EXPECT_NE(why.find("tcp only"), std::string::npos) << why;
    }
}

TEST(ChooseNetwork, UcxWithoutNetworkTakesLibfabricFabric)
{
    EXPECT_EQ(pick({"self", "sysv", "posix", "cma"}, {"efa"}), CHOOSE_OFI);
    EXPECT_NE(why.find("no network transport"), std::string::npos) << why;
    EXPECT_EQ(pick({}, {"cxi"}), CHOOSE_OFI);
}

TEST(ChooseNetwork, Psm3CountsOnlyOnADevice)
{
    EXPECT_EQ(pick({"tcp"}, {"psm3"}, {false}), CHOOSE_UCX);
    EXPECT_EQ(pick({"tcp"}, {"psm3"}, {true}), CHOOSE_OFI);
    EXPECT_EQ(pick({"tcp"}, {"psm3"}), CHOOSE_UCX);
}

TEST(ChooseNetwork, NodeLocalAndUtilityProvidersAreNotFabrics)
{
    EXPECT_EQ(pick({"tcp"}, {"shm", "sm2", "net", "ofi_rxm", "ucx;ofi_rxm", "udp;ofi_rxd"}),
              CHOOSE_UCX);
    EXPECT_FALSE(choose_ofi_prov_fast("tcp", true));
    EXPECT_FALSE(choose_ofi_prov_fast("", true));
    EXPECT_FALSE(choose_ofi_prov_fast(nullptr, true));
    EXPECT_TRUE(choose_ofi_prov_fast("verbs;ofi_rxd", false));
}

TEST(ChooseNetwork, UcxNodeLocalTransportsAreNotFast)
{
    for (const char *tl : {"tcp", "self", "sysv", "posix", "cma", "knem", "xpmem", "cuda_ipc",
                           "cuda_copy", "gdr_copy", "rocm_copy"})
        EXPECT_FALSE(choose_ucx_tl_fast(tl)) << tl;
    for (const char *tl : {"rc_verbs", "ud_verbs", "rc_mlx5", "dc_mlx5", "ud_mlx5", "ugni_rdma"})
        EXPECT_TRUE(choose_ucx_tl_fast(tl)) << tl;
    EXPECT_FALSE(choose_ucx_tl_fast(""));
}

TEST(ChooseNetwork, NothingAnywhereStaysUcx)
{
    EXPECT_EQ(pick({}, {}), CHOOSE_UCX);
    EXPECT_FALSE(why.empty());
}
