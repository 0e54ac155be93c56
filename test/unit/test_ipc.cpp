// Sharing an allocation with listed processes only.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

extern "C" {
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

TEST_F(Ipc, ListedProcessMapsTheSamePages)
{
    int pfd[2];
    ASSERT_EQ(pipe(pfd), 0);
    ipc_key key;
    ASSERT_EQ(ipc_export(&h, nullptr, 0, &key), 0);
    pid_t child = import_in_child(key, pfd[0]);
    // The child's PID is known only now: allow it, then let it try.
    ASSERT_EQ(ipc_export_allow(&key, &child, 1), 0);
    ASSERT_EQ(write(pfd[1], "g", 1), 1);
    EXPECT_EQ(wait_code(child), 0);
    close(pfd[0]);
    close(pfd[1]);
    ipc_unexport(&key);
}

TEST_F(Ipc, WithdrawnExportIsGone)
{
    int pfd[2];
    ASSERT_EQ(pipe(pfd), 0);
    ipc_key key;
    ASSERT_EQ(ipc_export(&h, nullptr, 0, &key), 0);
    pid_t child = import_in_child(key, pfd[0]);
    ASSERT_EQ(ipc_export_allow(&key, &child, 1), 0);
    ASSERT_EQ(ipc_unexport(&key), 0);
    ASSERT_EQ(write(pfd[1], "g", 1), 1);
    EXPECT_EQ(wait_code(child), 2);
    close(pfd[0]);
    close(pfd[1]);
}

} // namespace
