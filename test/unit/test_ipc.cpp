// Sharing an allocation with listed processes only.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern "C" {
#include "ipc/exports.h"
#include "ipc/ipc.h"
}

namespace {

// Child: import KEY and report through its exit code: 0 mapped and read
// "shared", 1 EPERM, 2 other failure, 3 wrong contents.
int import_in_child(const ipc_key &key, int sync_fd)
{
    pid_t pid = fork();
    if (pid == 0) {
        char go;
        if (sync_fd >= 0 && read(sync_fd, &go, 1) != 1)
            _exit(4);
        vmm_handle h;
        char *p = (char *)ipc_map(&key, &h);
        if (!p)
            _exit(errno == EPERM ? 1 : 2);
        _exit(strcmp(p, "shared") == 0 ? 0 : 3);
    }
    return pid;
}

int wait_code(pid_t pid)
{
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
}

struct Ipc : ::testing::Test {
    vmm_handle h{};
    char *va = nullptr;
    void SetUp() override
    {
        ASSERT_EQ(ipc_init(), 0);
        ASSERT_EQ(vmm_create(&h, 4096, "ipc-test"), 0);
        va = (char *)vmm_reserve(4096, 0);
        ASSERT_EQ(vmm_map(va, 4096, &h, 0, VMM_ACCESS_RW), 0);
        strcpy(va, "shared");
    }
    void TearDown() override
    {
        vmm_release(va, 4096);
        vmm_destroy(&h);
    }
};

TEST_F(Ipc, UnlistedProcessIsRefused)
{
    ipc_key key;
    pid_t nobody = 1; // init may import, this test process's child may not
    ASSERT_EQ(ipc_export(&h, &nobody, 1, &key), 0);
    EXPECT_EQ(wait_code(import_in_child(key, -1)), 1);
    ipc_unexport(&key);
}

// Exports to a child that is allowed once its PID is known; WITHDRAW
// unexports before the child tries. Returns the child's code.
int allowed_child_code(const vmm_handle &h, bool withdraw)
{
    int pfd[2];
    if (pipe(pfd) != 0)
        return -1;
    ipc_key key;
    if (ipc_export(&h, nullptr, 0, &key) != 0)
        return -1;
    pid_t child = import_in_child(key, pfd[0]);
    EXPECT_EQ(ipc_export_allow(&key, &child, 1), 0);
    if (withdraw) {
        EXPECT_EQ(ipc_unexport(&key), 0);
    }
    EXPECT_EQ(write(pfd[1], "g", 1), 1);
    int code = wait_code(child);
    close(pfd[0]);
    close(pfd[1]);
    if (!withdraw)
        ipc_unexport(&key);
    return code;
}

TEST_F(Ipc, ListedProcessMapsTheSamePages) { EXPECT_EQ(allowed_child_code(h, false), 0); }

TEST_F(Ipc, WithdrawnExportIsGone) { EXPECT_EQ(allowed_child_code(h, true), 2); }

// A direct export is reopened through /proc by a process that may read the
// owner anyway (here its child, same user), listed or not, and maps the same
// pages without the owner's service.
TEST_F(Ipc, DirectExportNeedsNoService)
{
    ipc_key key;
    pid_t nobody = 1;
    ASSERT_EQ(ipc_export(&h, &nobody, 1, &key), 0);
    ASSERT_EQ(ipc_export_direct(&key), 0);
    EXPECT_GT(key.direct_fd, 0);
    EXPECT_EQ(wait_code(import_in_child(key, -1)), 0);
    ipc_unexport(&key);
}

// A key whose descriptor now names another file (the export gone, its
// number reused) is not reopened: the import asks the service, which
// refuses a process it never listed.
TEST_F(Ipc, DirectExportOfAnotherFileFallsBackToTheList)
{
    ipc_key key;
    pid_t nobody = 1;
    ASSERT_EQ(ipc_export(&h, &nobody, 1, &key), 0);
    ASSERT_EQ(ipc_export_direct(&key), 0);
    key.direct_ino ^= 1;
    EXPECT_EQ(wait_code(import_in_child(key, -1)), 1);
    ipc_unexport(&key);
}

// Lists come unsorted and with repeats, and every segment lists the same
// PIDs again: each listed PID is a member, and no other.
TEST_F(Ipc, MembersOfUnsortedAndRepeatedLists)
{
    ipc_key a, b;
    pid_t first[] = {900007, 900003, 900005, 900003};
    pid_t again[] = {900003, 900005, 900007};
    pid_t more[] = {900009, 900001, 900005};
    ASSERT_EQ(ipc_export(&h, first, 4, &a), 0);
    ASSERT_EQ(ipc_export(&h, again, 3, &b), 0);
    for (pid_t p : {900003, 900005, 900007})
        EXPECT_TRUE(ipc_exports_member(p)) << p;
    EXPECT_FALSE(ipc_exports_member(900001));
    EXPECT_FALSE(ipc_exports_member(900004));
    ASSERT_EQ(ipc_export_allow(&b, more, 3), 0);
    for (pid_t p : {900001, 900003, 900005, 900007, 900009})
        EXPECT_TRUE(ipc_exports_member(p)) << p;
    EXPECT_FALSE(ipc_exports_member(900008));
    ipc_unexport(&a);
    ipc_unexport(&b);
}

// Once mapped, the import keeps no descriptor open: a node of N PEs would
// hold N per segment otherwise.
TEST_F(Ipc, MappedImportKeepsNoDescriptor)
{
    ipc_key key;
    ASSERT_EQ(ipc_export(&h, nullptr, 0, &key), 0);
    ASSERT_EQ(ipc_export_direct(&key), 0);
    vmm_handle got{};
    char *p = (char *)ipc_map(&key, &got);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(got.fd, -1);
    EXPECT_STREQ(p, "shared");
    ipc_unmap(p, &got);
    ipc_unexport(&key);
}

bool is_mapped(const void *p)
{
    unsigned char v;
    return mincore(const_cast<void *>(p), 1, &v) == 0;
}

// ipc_unmap_all unmaps what it is given, whatever the order and however
// the sizes fall in pages, and nothing between: a gap between two of its
// mappings may hold someone else's.
TEST(IpcUnmapAll, UnmapsRunsAndLeavesGaps)
{
    size_t pg = vmm_page_size();
    char *r = (char *)vmm_reserve(5 * pg, 0);
    ASSERT_NE(r, nullptr);
    ipc_mapping m[] = {{r + 3 * pg, 100}, {r, pg}, {r + pg, 10}};
    ipc_unmap_all(m, 3);
    EXPECT_FALSE(is_mapped(r));
    EXPECT_FALSE(is_mapped(r + pg));
    EXPECT_TRUE(is_mapped(r + 2 * pg)); // the gap: not ours
    EXPECT_FALSE(is_mapped(r + 3 * pg));
    EXPECT_TRUE(is_mapped(r + 4 * pg));
    vmm_release(r + 2 * pg, pg);
    vmm_release(r + 4 * pg, pg);
    ipc_unmap_all(nullptr, 0);
}

TEST_F(Ipc, UnmapAllReleasesImports)
{
    ipc_key key;
    ASSERT_EQ(ipc_export(&h, nullptr, 0, &key), 0);
    ASSERT_EQ(ipc_export_direct(&key), 0);
    ipc_mapping m[4];
    for (auto &e : m) {
        vmm_handle got{};
        e.va = ipc_map(&key, &got);
        ASSERT_NE(e.va, nullptr);
        e.size = got.size;
        EXPECT_STREQ((char *)e.va, "shared");
    }
    ipc_unmap_all(m, 4);
    for (auto &e : m)
        EXPECT_FALSE(is_mapped(e.va));
    EXPECT_STREQ(va, "shared"); // the owner's own mapping stays
    ipc_unexport(&key);
}

} // namespace
