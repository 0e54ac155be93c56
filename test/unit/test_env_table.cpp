// The environment table's parser: every type, bad values, the deprecated
// SMA_* names of the specification and their precedence, and the
// closest-name suggestion for unknown SHMEM_* variables.
#include <gtest/gtest.h>

#include <string>
#include <vector>

extern "C" {
#include "util/env.h"
}

namespace {

struct Parsed {
    int rc;
    oshm_env_result r;
};

// Parses a made-up environment (the process's own is not touched).
Parsed parse(std::vector<std::string> vars)
{
    std::vector<char *> envp;
    static std::vector<std::string> keep;
    keep = std::move(vars);
    for (auto &v : keep)
        envp.push_back(v.data());
    envp.push_back(nullptr);
    Parsed p;
    p.rc = oshm_env_parse(envp.data(), &p.r);
    return p;
}

bool has(const char *text, const char *part) { return std::string(text).find(part) != std::string::npos; }

} // namespace

TEST(EnvTable, DefaultsParseAndMatchTheDocumentedOnes)
{
    Parsed p = parse({});
    ASSERT_EQ(p.rc, 0) << p.r.error;
    EXPECT_EQ(p.r.env.symmetric_size, (size_t)1 << 30);
    EXPECT_EQ(p.r.env.device_heap_size, (size_t)256 << 20);
    EXPECT_FALSE(p.r.env.debug);
    EXPECT_FALSE(p.r.env.info);
    EXPECT_FALSE(p.r.env.version);
    EXPECT_EQ(p.r.env.transport, OSHM_TRANSPORT_AUTO);
    EXPECT_TRUE(p.r.env.progress_thread);
    EXPECT_EQ(p.r.env.node_id, nullptr);
    EXPECT_EQ(p.r.env.device_engine_delay_us, 0ul);
    EXPECT_STREQ(p.r.notes, "");
    for (int i = 0; i < OSHM_ENV_COUNT; i++)
        EXPECT_EQ(p.r.from[i], nullptr) << oshm_env_vars[i].name;
}

TEST(EnvTable, EveryRowIsComplete)
{
    for (int i = 0; i < OSHM_ENV_COUNT; i++) {
        const oshm_env_var &v = oshm_env_vars[i];
        EXPECT_TRUE(v.name && *v.name);
        EXPECT_TRUE(v.meaning && *v.meaning) << v.name;
        EXPECT_TRUE(v.reader && *v.reader) << v.name;
        if (v.type == OSHM_ENV_TYPE_CHOICE || v.type == OSHM_ENV_TYPE_SIZE ||
            v.type == OSHM_ENV_TYPE_UINT) {
            EXPECT_TRUE(*v.accepted) << v.name << " needs its accepted values";
        }
        for (int j = 0; j < i; j++) {
            EXPECT_STRNE(v.name, oshm_env_vars[j].name);
        }
    }
    EXPECT_STREQ(OSHM_ENV_NAME(SHMEM_SYMMETRIC_SIZE), "SHMEM_SYMMETRIC_SIZE");
}

TEST(EnvTable, Sizes)
{
    struct {
        const char *text;
        size_t bytes;
    } ok[] = {{"64M", (size_t)64 << 20}, {"512k", 512u << 10}, {"2g", (size_t)2 << 30},
              {"1TB", (size_t)1 << 40}, {"4096", 4096}, {"0", 0},
              // The specification allows a fraction; the size is at least the product.
              {"1.5G", (size_t)3 << 29}, {"0.5K", 512}, {"1.0001K", 1025}, {"2.5", 3}};
    for (auto &c : ok) {
        Parsed p = parse({std::string("SHMEM_SYMMETRIC_SIZE=") + c.text});
        ASSERT_EQ(p.rc, 0) << c.text << ": " << p.r.error;
        EXPECT_EQ(p.r.env.symmetric_size, c.bytes) << c.text;
        EXPECT_STREQ(p.r.from[OSHM_ENV_SHMEM_SYMMETRIC_SIZE], "SHMEM_SYMMETRIC_SIZE");
        EXPECT_STREQ(p.r.value[OSHM_ENV_SHMEM_SYMMETRIC_SIZE], c.text);
    }
}

TEST(EnvTable, BadSizesNameVariableValueAndWhatIsAccepted)
{
    for (const char *bad : {"12Q", "lots", "-1", "1.5.5G", "G", ".5G", "1e9", "1 G B", "99999999999E"}) {
        Parsed p = parse({std::string("SHMEM_SYMMETRIC_SIZE=") + bad});
        EXPECT_EQ(p.rc, -1) << bad;
        EXPECT_TRUE(has(p.r.error, (std::string("SHMEM_SYMMETRIC_SIZE=\"") + bad + "\"").c_str()))
            << p.r.error;
        EXPECT_TRUE(has(p.r.error, "accepted")) << p.r.error;
        EXPECT_TRUE(has(p.r.error, "K, M, G, T")) << p.r.error;
    }
    // The device heap cannot be empty.
    Parsed p = parse({"SHMEM_DEVICE_HEAP_SIZE=0"});
    EXPECT_EQ(p.rc, -1);
    EXPECT_TRUE(has(p.r.error, "out of range")) << p.r.error;
}

TEST(EnvTable, Numbers)
{
    Parsed p = parse({"SHMEM_DEVICE_ENGINE_DELAY_US=20000"});
    ASSERT_EQ(p.rc, 0) << p.r.error;
    EXPECT_EQ(p.r.env.device_engine_delay_us, 20000ul);
    for (const char *bad : {"soon", "-3", "1.5", "12us", "10000001", "99999999999999999999999"}) {
        p = parse({std::string("SHMEM_DEVICE_ENGINE_DELAY_US=") + bad});
        EXPECT_EQ(p.rc, -1) << bad;
        EXPECT_TRUE(has(p.r.error, "SHMEM_DEVICE_ENGINE_DELAY_US=")) << p.r.error;
        EXPECT_TRUE(has(p.r.error, "0 to 10000000")) << p.r.error;
    }
}

TEST(EnvTable, Booleans)
{
    for (const char *on : {"1", "y", "YES", "true", "On"}) {
        Parsed p = parse({std::string("SHMEM_PROGRESS_THREAD=") + on, std::string("SHMEM_INFO=") + on});
        ASSERT_EQ(p.rc, 0) << on;
        EXPECT_TRUE(p.r.env.progress_thread) << on;
        EXPECT_TRUE(p.r.env.info) << on;
    }
    for (const char *off : {"0", "n", "No", "FALSE", "off"}) {
        Parsed p = parse({std::string("SHMEM_PROGRESS_THREAD=") + off, std::string("SHMEM_DEBUG=") + off});
        ASSERT_EQ(p.rc, 0) << off;
        EXPECT_FALSE(p.r.env.progress_thread) << off;
        EXPECT_FALSE(p.r.env.debug) << off;
    }
    // The specification's flags take "any" value; a strict bool refuses a stray word.
    Parsed p = parse({"SHMEM_VERSION=please"});
    ASSERT_EQ(p.rc, 0);
    EXPECT_TRUE(p.r.env.version);
    p = parse({"SHMEM_PROGRESS_THREAD=maybe"});
    EXPECT_EQ(p.rc, -1);
    EXPECT_TRUE(has(p.r.error, "SHMEM_PROGRESS_THREAD=\"maybe\"")) << p.r.error;
    EXPECT_TRUE(has(p.r.error, "yes")) << p.r.error;
}

TEST(EnvTable, Choices)
{
    Parsed p = parse({"SHMEM_TRANSPORT=UCX"});
    ASSERT_EQ(p.rc, 0);
    EXPECT_EQ(p.r.env.transport, OSHM_TRANSPORT_UCX);
    p = parse({"SHMEM_TRANSPORT=shm"});
    EXPECT_EQ(p.r.env.transport, OSHM_TRANSPORT_SHM);
    p = parse({"SHMEM_TRANSPORT=ucz"});
    EXPECT_EQ(p.rc, -1);
    EXPECT_TRUE(has(p.r.error, "SHMEM_TRANSPORT=\"ucz\"")) << p.r.error;
    EXPECT_TRUE(has(p.r.error, "auto, shm, ucx or ofi")) << p.r.error;
    EXPECT_TRUE(has(p.r.error, "did you mean ucx?")) << p.r.error;
    p = parse({"SHMEM_TRANSPORT=infiniband"});
    EXPECT_EQ(p.rc, -1);
    EXPECT_FALSE(has(p.r.error, "did you mean")) << p.r.error;
}

TEST(EnvTable, EmptyIsUnset)
{
    Parsed p = parse({"SHMEM_SYMMETRIC_SIZE=", "SHMEM_TRANSPORT=", "SHMEM_NODE_ID="});
    ASSERT_EQ(p.rc, 0) << p.r.error;
    EXPECT_EQ(p.r.env.symmetric_size, (size_t)1 << 30);
    EXPECT_EQ(p.r.env.node_id, nullptr);
}

TEST(EnvTable, DeprecatedNamesWorkWithANote)
{
    Parsed p = parse({"SMA_SYMMETRIC_SIZE=8M", "SMA_DEBUG=1", "SMA_INFO=1", "SMA_VERSION=1"});
    ASSERT_EQ(p.rc, 0) << p.r.error;
    EXPECT_EQ(p.r.env.symmetric_size, (size_t)8 << 20);
    EXPECT_TRUE(p.r.env.debug);
    EXPECT_TRUE(p.r.env.info);
    EXPECT_TRUE(p.r.env.version);
    EXPECT_STREQ(p.r.from[OSHM_ENV_SHMEM_SYMMETRIC_SIZE], "SMA_SYMMETRIC_SIZE");
    for (const char *n : {"SMA_SYMMETRIC_SIZE is deprecated", "use SHMEM_SYMMETRIC_SIZE",
                          "SMA_DEBUG is deprecated", "SMA_INFO is deprecated", "SMA_VERSION is deprecated"})
        EXPECT_TRUE(has(p.r.notes, n)) << n << " not in: " << p.r.notes;
    // A bad value under the old name is named by the old name.
    p = parse({"SMA_SYMMETRIC_SIZE=12Q"});
    EXPECT_EQ(p.rc, -1);
    EXPECT_TRUE(has(p.r.error, "SMA_SYMMETRIC_SIZE=\"12Q\"")) << p.r.error;
}

TEST(EnvTable, NewNameWinsOverDeprecatedAndSaysSo)
{
    Parsed p = parse({"SMA_SYMMETRIC_SIZE=2G", "SHMEM_SYMMETRIC_SIZE=8M", "SMA_DEBUG=1", "SHMEM_DEBUG=0"});
    ASSERT_EQ(p.rc, 0) << p.r.error;
    EXPECT_EQ(p.r.env.symmetric_size, (size_t)8 << 20);
    EXPECT_FALSE(p.r.env.debug);
    EXPECT_TRUE(has(p.r.notes, "SHMEM_SYMMETRIC_SIZE wins")) << p.r.notes;
    EXPECT_TRUE(has(p.r.notes, "SHMEM_DEBUG wins")) << p.r.notes;
    // The loser's value is not parsed: a stale bad SMA_ value does not end the job.
    p = parse({"SMA_SYMMETRIC_SIZE=junk", "SHMEM_SYMMETRIC_SIZE=8M"});
    EXPECT_EQ(p.rc, 0) << p.r.error;
}

TEST(EnvTable, UnknownNamesGetTheClosestKnownOne)
{
    Parsed p = parse({"SHMEM_SYMETRIC_SIZE=1G", "SHMEM_TRANSPRT=shm", "SMA_INF=1", "SHMEM_COLOUR=blue",
                      "HOME=/root", "SHMEMX=1", "OSHRUN_ADDR=@x"});
    ASSERT_EQ(p.rc, 0) << p.r.error;
    EXPECT_TRUE(has(p.r.notes, "SHMEM_SYMETRIC_SIZE is not a variable of this library: did you "
                               "mean SHMEM_SYMMETRIC_SIZE?")) << p.r.notes;
    EXPECT_TRUE(has(p.r.notes, "did you mean SHMEM_TRANSPORT?")) << p.r.notes;
    EXPECT_TRUE(has(p.r.notes, "SMA_INF is not")) << p.r.notes;
    EXPECT_TRUE(has(p.r.notes, "SHMEM_COLOUR is not a variable of this library (oshm_info")) << p.r.notes;
    EXPECT_FALSE(has(p.r.notes, "HOME")) << p.r.notes;
    EXPECT_FALSE(has(p.r.notes, "SHMEMX")) << p.r.notes;
    EXPECT_FALSE(has(p.r.notes, "OSHRUN_ADDR")) << p.r.notes;
    EXPECT_STREQ(oshm_env_closest("SHMEM_DEBGU"), "SHMEM_DEBUG");
    EXPECT_STREQ(oshm_env_closest("shmem_info"), "SHMEM_INFO");
    EXPECT_EQ(oshm_env_closest("PATH"), nullptr);
}

TEST(EnvTable, Distance)
{
    EXPECT_EQ(oshm_env_distance("kitten", "sitting"), 3u);
    EXPECT_EQ(oshm_env_distance("", "abc"), 3u);
    EXPECT_EQ(oshm_env_distance("SHMEM_INFO", "SHMEM_INFO"), 0u);
    EXPECT_EQ(oshm_env_distance("SHMEM_INFO", "shmem_info"), 0u);
}

TEST(EnvTable, LauncherVariablesAreReadButNeverPrinted)
{
    Parsed p = parse({"OSHRUN_ADDR=@abc", "OSHRUN_SECRET=s3cr3t", "PMIX_RANK=3"});
    ASSERT_EQ(p.rc, 0);
    EXPECT_STREQ(p.r.env.oshrun_addr, "@abc");
    EXPECT_STREQ(p.r.env.oshrun_secret, "s3cr3t");
    EXPECT_STREQ(p.r.env.pmix_rank, "3");
    EXPECT_TRUE(oshm_env_vars[OSHM_ENV_OSHRUN_SECRET].launch);
}
