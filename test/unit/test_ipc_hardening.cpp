// The export service facing peers that do not play by the rules (issue 12):
// strangers, silent or slow members, malformed requests. Each waits a
// bounded time, so a service that hangs fails instead of stalling.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

extern "C" {
#include "ipc/ipc.h"
#include "util/env.h"
}

namespace {

using Clock = std::chrono::steady_clock;

// A plain connection to KEY's service, as anyone could open one (abstract
// name: a 0 byte, then the name).
int raw_connect(const ipc_key &key)
{
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    size_t len = strnlen(key.server, sizeof key.server);
    memcpy(sa.sun_path + 1, key.server, len);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    timeval tv{};
    tv.tv_sec = 3;
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (connect(s, (sockaddr *)&sa, (socklen_t)(offsetof(sockaddr_un, sun_path) + 1 + len)) != 0) {
        close(s);
        return -1;
    }
    return s;
}

// The reply's status, -1 when none came within the socket's timeout.
int read_status(int s)
{
    int32_t status;
    return recv(s, &status, sizeof status, MSG_WAITALL) == (ssize_t)sizeof status ? status : -1;
}

// Waits up to SECONDS for PID; its exit code, or -1 (and PID killed).
int wait_within(pid_t pid, double seconds)
{
    auto end = Clock::now() + std::chrono::duration<double>(seconds);
    int st = 0;
    while (waitpid(pid, &st, WNOHANG) == 0) {
        if (Clock::now() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        usleep(10000);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
}

// A child that waits for the go byte on GATE, then runs BODY for its code.
template <class F> pid_t child(int gate, F body)
{
    pid_t pid = fork();
    if (pid == 0) {
        char go;
        if (read(gate, &go, 1) != 1)
            _exit(90);
        _exit(body());
    }
    return pid;
}

// Imports KEY and checks the contents: 0 ok, 1 EPERM, 2 other failure, 3
// wrong contents.
int import_code(const ipc_key &key)
{
    vmm_handle h;
    char *p = (char *)ipc_map(&key, &h);
    if (!p)
        return errno == EPERM ? 1 : 2;
    return strcmp(p, "shared") == 0 ? 0 : 3;
}

struct IpcHard : ::testing::Test {
    vmm_handle h{};
    char *va = nullptr;
    ipc_key key{};
    int gate[2] = {-1, -1};
    void SetUp() override
    {
        ASSERT_EQ(ipc_init(), 0);
        ASSERT_EQ(vmm_create(&h, 4096, "ipc-hard-test"), 0);
        va = (char *)vmm_reserve(4096, 0);
        ASSERT_EQ(vmm_map(va, 4096, &h, 0, VMM_ACCESS_RW), 0);
        strcpy(va, "shared");
        ASSERT_EQ(ipc_export(&h, nullptr, 0, &key), 0);
        ASSERT_EQ(pipe(gate), 0);
    }
    // Lets the children go once they may import.
    void allow_and_release(const pid_t *pids, int n)
    {
        ASSERT_EQ(ipc_export_allow(&key, pids, n), 0);
        for (int i = 0; i < n; i++)
            ASSERT_EQ(write(gate[1], "g", 1), 1);
    }
    void TearDown() override
    {
        close(gate[0]);
        close(gate[1]);
        ipc_unexport(&key);
        vmm_release(va, 4096);
        vmm_destroy(&h);
        oshm_env.debug = false;
    }
};

// A process outside the job hears EPERM at once without sending anything,
// then the service hangs up, and the refusal names its pid.
TEST_F(IpcHard, StrangerIsRefusedBeforeItSpeaks)
{
    oshm_env.debug = true;
    ::testing::internal::CaptureStderr();
    int s = raw_connect(key);
    ASSERT_GE(s, 0);
    EXPECT_EQ(read_status(s), EPERM);
    char c;
    EXPECT_EQ(recv(s, &c, 1, 0), 0) << "the service should hang up";
    close(s);
    usleep(50000); // the log line is written after the reply
    std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(log.find("refused a connection from pid " + std::to_string(getpid())),
              std::string::npos)
        << log;
}

// A stranger's connection, open and silent, does not delay a member.
TEST_F(IpcHard, MemberIsServedWhileStrangerIsSilent)
{
    int stranger = raw_connect(key); // this process is not a member
    ASSERT_GE(stranger, 0);
    usleep(50000); // the service has taken it in
    pid_t member = child(gate[0], [&] { return import_code(key); });
    allow_and_release(&member, 1);
    EXPECT_EQ(wait_within(member, 5), 0);
    close(stranger);
}

// A member that connects and stays silent holds up nobody, and is dropped
// once its deadline has passed.
TEST_F(IpcHard, SilentMemberHoldsUpNobodyAndIsDropped)
{
    pid_t silent = child(gate[0], [&] {
        int s = raw_connect(key);
        if (s < 0)
            return 2;
        timeval tv{};
        tv.tv_sec = 10;
        setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        char c;
        return recv(s, &c, 1, 0) == 0 ? 0 : 1; // 0: the service hung up
    });
    pid_t member = child(gate[0], [&] {
        usleep(200000); // after the silent one has connected
        return import_code(key);
    });
    pid_t both[] = {silent, member};
    allow_and_release(both, 2);
    EXPECT_EQ(wait_within(member, 5), 0);
    EXPECT_EQ(wait_within(silent, 12), 0) << "a silent member was never dropped";
}

// A listed PID is not enough: the process must run as this user too, or it
// is refused before it speaks. Needs root to become another user.
TEST_F(IpcHard, MemberOfAnotherUserIsRefused)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "needs root to switch users";
    pid_t other = child(gate[0], [&] {
        if (setuid(65534) != 0)
            return 10;
        int s = raw_connect(key);
        return s >= 0 && read_status(s) == EPERM ? 0 : 1;
    });
    allow_and_release(&other, 1);
    EXPECT_EQ(wait_within(other, 5), 0);
}

// Junk from a member and a key for no export are refused, not trusted, and
// the refusals name the member.
TEST_F(IpcHard, BadRequestsAreRefusedAndLogged)
{
    oshm_env.debug = true;
    ::testing::internal::CaptureStderr();
    pid_t member = child(gate[0], [&] {
        int s = raw_connect(key);
        if (s < 0)
            return 10;
        const unsigned char junk[16] = {0xff, 0xff, 0xff, 0xff, 0xde, 0xad, 0xbe, 0xef};
        if (send(s, junk, sizeof junk, MSG_NOSIGNAL) != (ssize_t)sizeof junk)
            return 11;
        int status = read_status(s);
        close(s);
        if (status <= 0)
            return 12; // no reply, or one that grants something
        ipc_key wrong = key;
        wrong.id = 999999;
        vmm_handle hh;
        if (ipc_import(&wrong, &hh) == 0 || errno != ENOENT)
            return 13;
        return 0;
    });
    allow_and_release(&member, 1);
    int code = wait_within(member, 5);
    usleep(50000);
    std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(code, 0);
    std::string pid = "pid " + std::to_string(member);
    EXPECT_NE(log.find("refused a malformed request from " + pid), std::string::npos) << log;
    EXPECT_NE(log.find("refused import of export 999999 by " + pid), std::string::npos) << log;
}

// Stopping the service waits on no connection, whoever holds it.
TEST_F(IpcHard, FiniWaitsOnNobody)
{
    int stranger = raw_connect(key);
    ASSERT_GE(stranger, 0);
    pid_t silent = child(gate[0], [&] {
        int s = raw_connect(key);
        pause(); // killed below
        return s;
    });
    allow_and_release(&silent, 1);
    usleep(200000); // both connections are in
    std::atomic<bool> done{false};
    auto start = Clock::now();
    std::thread fini([&] {
        ipc_fini();
        done = true;
    });
    while (!done && Clock::now() - start < std::chrono::seconds(3))
        usleep(10000);
    if (!done) {
        ADD_FAILURE() << "ipc_fini waited on a connection for 3 s";
        kill(silent, SIGKILL);
        fflush(nullptr);
        _exit(1); // the thread is stuck in ipc_fini: nothing more can run
    }
    fini.join();
    kill(silent, SIGKILL);
    waitpid(silent, nullptr, 0);
    close(stranger);
    // SetUp's export is gone with the service; the next test starts anew.
    EXPECT_EQ(ipc_unexport(&key), -1);
    EXPECT_EQ(ipc_init(), 0);
    ASSERT_EQ(ipc_export(&h, nullptr, 0, &key), 0);
}

} // namespace
