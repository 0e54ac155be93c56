// Reserve / create / map / access / export / import.
#include <gtest/gtest.h>

#include <csetjmp>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

extern "C" {
#include "vmm/vmm.h"
}

TEST(Vmm, ReserveIsAlignedAndInaccessible)
{
    size_t align = 2 << 20;
    void *va = vmm_reserve(8 << 20, align);
    ASSERT_NE(va, nullptr);
    EXPECT_EQ((uintptr_t)va % align, 0u);
    // Touching a reserved page must fault: check in a child.
    pid_t pid = fork();
    if (pid == 0) {
        *(volatile char *)va = 1;
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    // A sanitizer turns the fault into an exit with an error status.
    EXPECT_TRUE((WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) || (WIFEXITED(st) && WEXITSTATUS(st)));
    EXPECT_EQ(vmm_release(va, 8 << 20), 0);
}

TEST(Vmm, OneHandleTwoAddressesSamePages)
{
    vmm_handle h;
    ASSERT_EQ(vmm_create(&h, 1 << 20, "test"), 0);
    char *a = (char *)vmm_reserve(1 << 20, 0), *b = (char *)vmm_reserve(1 << 20, 0);
    ASSERT_EQ(vmm_map(a, 1 << 20, &h, 0, VMM_ACCESS_RW), 0);
    ASSERT_EQ(vmm_map(b, 1 << 20, &h, 0, VMM_ACCESS_RW), 0);
    strcpy(a + 4096, "hello");
    EXPECT_STREQ(b + 4096, "hello");
    ASSERT_EQ(vmm_set_access(b, 1 << 20, VMM_ACCESS_READ), 0);
    EXPECT_EQ(vmm_unmap(a, 1 << 20), 0);
    EXPECT_STREQ(b + 4096, "hello") << "pages live while a mapping does";
    vmm_destroy(&h);
    EXPECT_STREQ(b + 4096, "hello") << "and after the handle is closed";
    vmm_release(a, 1 << 20);
    vmm_release(b, 1 << 20);
}

TEST(Vmm, GrowingTheHandleExtendsExistingMappings)
{
    vmm_handle h;
    ASSERT_EQ(vmm_create(&h, 0, "grow"), 0);
    size_t cap = 4 << 20;
    char *a = (char *)vmm_reserve(cap, 0);
    ASSERT_EQ(vmm_map(a, cap, &h, 0, VMM_ACCESS_RW), 0);
    ASSERT_EQ(vmm_resize(&h, 2 << 20), 0);
    a[(2 << 20) - 1] = 42;
    EXPECT_EQ(a[(2 << 20) - 1], 42);
    vmm_destroy(&h);
    vmm_release(a, cap);
}

TEST(Vmm, ExportImportCarriesTheMemory)
{
    vmm_handle h, imported;
    ASSERT_EQ(vmm_create(&h, 4096, "exp"), 0);
    int fd = vmm_export(&h);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(vmm_import(fd, 4096, &imported), 0);
    char *a = (char *)vmm_reserve(4096, 0), *b = (char *)vmm_reserve(4096, 0);
    ASSERT_EQ(vmm_map(a, 4096, &h, 0, VMM_ACCESS_RW), 0);
    ASSERT_EQ(vmm_map(b, 4096, &imported, 0, VMM_ACCESS_RW), 0);
    a[10] = 'x';
    EXPECT_EQ(b[10], 'x');
    vmm_destroy(&h);
    vmm_destroy(&imported);
    vmm_release(a, 4096);
    vmm_release(b, 4096);
    EXPECT_EQ(vmm_import(-1, 1, &imported), -1);
}
