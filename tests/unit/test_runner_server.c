/* Loopback servers started by the runner (run/server.c), with a stand-in server: this program
 * run again as `test_runner_server serve PORT MODE`. The stand-in numbers the connections it
 * accepts and answers each with its number, then (MODE relisten) closes and re-creates its
 * listening socket the way `iperf3 -s` does after every client. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "loopback_port.h"
#include "run/runner_internal.h"
#include "tally.h"

/* 127.0.0.1:port. */
static struct sockaddr_in loopback(long port)
{
    struct sockaddr_in a;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((unsigned short)port);
    return a;
}

static int listen_on(long port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    struct sockaddr_in a = loopback(port);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
        bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(fd, 16) != 0) {
        fprintf(stderr, "stand-in: cannot listen on port %ld: %s\n", port, strerror(errno));
        exit(3);
    }
    return fd;
}

static int serve(long port, const char *mode)
{
    if (strcmp(mode, "fail") == 0) {
        fprintf(stderr, "stand-in: refusing to start (mode fail)\n");
        return 4;
    }
    int l = listen_on(port);
    for (int count = 1;; count++) {
        int c = accept(l, NULL, NULL);
        if (c < 0)
            return 5;
        char msg[16];
        int n = snprintf(msg, sizeof(msg), "%d\n", count);
        if (write(c, msg, (size_t)n) != n)
            return 6;
        close(c);
        if (strcmp(mode, "once") == 0)
            return 0;
        if (strcmp(mode, "relisten") == 0) {
            close(l);
            l = listen_on(port);
        }
    }
}


/* Connect to the stand-in and read the number it gives this connection; -1 refused or reset. */
static int ask(long port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = loopback(port);
    char buf[16] = "";
    ssize_t got = -1;
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0)
        got = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    return got > 0 ? atoi(buf) : -1;
}

static tally__server start(long port, const char *mode, unsigned flags, int expect_rc)
{
    char port_s[16];
    snprintf(port_s, sizeof(port_s), "%ld", port);
    char *argv[] = { "/proc/self/exe", "serve", port_s, (char *)mode, NULL };
    tally__server s;
    tally__server_init(&s);
    int rc = tally__server_start(&s, argv, port, "stand-in", flags, "stop it");
    if (rc != expect_rc)
        fprintf(stderr, "  start %s: %s\n", mode, tally_error_last()->message);
    CHECK_INT(rc, expect_rc);
    return s;
}

/* Readiness without a probe, and again after the server re-created its listener. Old code
 * (a connect() probe): the stand-in took the probe as client 1 and this test's first
 * connection was refused or reset in 20 of 20 starts. */
static void test_not_connected_to(void)
{
    long port = free_port();
    tally__server s = start(port, "relisten", TALLY__SERVER_RELISTEN, TALLY_OK);
    /* The first connection the server ever sees is this one. */
    CHECK_INT(ask(port), 1);
    for (int i = 2; i <= 4; i++) {
        CHECK_INT(tally__server_ready(&s), TALLY_OK); /* waits for the new listener */
        CHECK_INT(ask(port), i);
    }
    tally__server_free(&s);
    CHECK(!tally__loopback_port_open(port));
}

/* A server that exits at start is reported with its own words. */
static void test_dies_at_start(void)
{
    long port = free_port();
    tally__server s = start(port, "fail", 0, TALLY_ERUN);
    const char *msg = tally_error_last()->message;
    CHECK(strstr(msg, "stand-in exited at start (exit status 4)") != NULL);
    CHECK(strstr(msg, "refusing to start (mode fail)") != NULL);
    if (strstr(msg, "refusing") == NULL)
        fprintf(stderr, "  message: %s\n", msg);
    CHECK_INT(s.pid, 0);
    tally__server_free(&s);
}

/* A port already taken is refused before anything starts. */
static void test_port_busy(void)
{
    long port = free_port();
    tally__server other = start(port, "once", 0, TALLY_OK);
    tally__server s = start(port, "once", 0, TALLY_ERUN);
    CHECK(strstr(tally_error_last()->message, "is already in use (another stand-in?): stop it") !=
          NULL);
    tally__server_free(&s);
    tally__server_free(&other);
}

/* A dead server between runs is an error naming it, not a silent failure of every run. */
static void test_dies_between_runs(void)
{
    long port = free_port();
    tally__server s = start(port, "once", 0, TALLY_OK);
    CHECK_INT(ask(port), 1); /* mode once: exits after its first client */
    siginfo_t si; /* wait for that exit (not reaping it), so the check below cannot come first */
    CHECK(waitid(P_PID, (id_t)s.pid, &si, WEXITED | WNOWAIT) == 0);
    CHECK_INT(tally__server_ready(&s), TALLY_ERUN);
    CHECK(strstr(tally_error_last()->message, "stand-in exited between runs (exit status 0)") !=
          NULL);
    tally__server_free(&s);
}

/* In a private network namespace (root): ready, and not reachable from the host's; refused
 * (not root): the server runs in the host's namespace with a warning saying what to do. */
static void test_private_namespace(void);

static void test_private_namespace_unprivileged(void)
{
    if (geteuid() != 0)
        return; /* test_private_namespace() already ran unprivileged */
    pid_t pid = fork();
    if (pid == 0) {
        int failed_before = check_failed;
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(3);
        test_private_namespace();
        _exit(check_failed > failed_before ? 1 : 0);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_private_namespace(void)
{
    long port = free_port();
    tally__server s = start(port, "relisten", TALLY__SERVER_NETNS, TALLY_OK);
    CHECK(s.pid > 0);
    if (geteuid() == 0) {
        CHECK(s.netns_fd >= 0);
        CHECK(s.warning == NULL);
        CHECK(!tally__loopback_port_open(port)); /* the host's loopback has no such listener */
    } else {
        CHECK(s.netns_fd < 0);
        CHECK(s.warning != NULL && strstr(s.warning, "run tally as root") != NULL);
    }
    tally__server_free(&s);
}

static int tcp_listener(struct sockaddr_in *a)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    memset(a, 0, sizeof(*a));
    a->sin_family = AF_INET;
    a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(*a);
    CHECK(bind(fd, (struct sockaddr *)a, sizeof(*a)) == 0 && listen(fd, 8) == 0 &&
          getsockname(fd, (struct sockaddr *)a, &len) == 0);
    return fd;
}

static int tcp_connect(const struct sockaddr_in *a)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(connect(fd, (const struct sockaddr *)a, sizeof(*a)) == 0);
    return fd;
}

/* tcp_rr's server end is its own client's connection, not a stranger's that came first. The
 * hazard, shown with a plain accept(): it hands over the stranger (old code did just that). */
static void test_accept_own(void)
{
    struct sockaddr_in a;
    int lfd = tcp_listener(&a);
    int stranger = tcp_connect(&a), client = tcp_connect(&a);
    int first = accept(lfd, NULL, NULL);
    struct sockaddr_in peer, strangers_end;
    socklen_t len = sizeof(peer), slen = sizeof(strangers_end);
    getpeername(first, (struct sockaddr *)&peer, &len);
    getsockname(stranger, (struct sockaddr *)&strangers_end, &slen);
    CHECK(peer.sin_port == strangers_end.sin_port); /* plain accept: the stranger */
    close(first);
    close(stranger);
    close(client);
    close(lfd);

    lfd = tcp_listener(&a);
    stranger = tcp_connect(&a);
    int stranger2 = tcp_connect(&a);
    client = tcp_connect(&a);
    unsigned strangers = 0;
    int server = tally__accept_own(lfd, client, &strangers);
    CHECK(server >= 0);
    CHECK_INT(strangers, 2);
    /* The pair talks: a byte from the client arrives at the server end. */
    char byte = 'x', got = 0;
    CHECK(write(client, &byte, 1) == 1 && read(server, &got, 1) == 1 && got == 'x');
    /* The strangers were closed: they read end of file. */
    CHECK(read(stranger, &got, 1) == 0);
    CHECK(read(stranger2, &got, 1) == 0);
    close(server);
    close(client);
    close(stranger);
    close(stranger2);
    close(lfd);
}

/* The self-connect hazard behind tally__loopback_port_open: a socket whose source port is the
 * port it connects to on 127.0.0.1 connects to itself (TCP simultaneous open) with nobody
 * listening. Shown here by binding the source port on purpose; the kernel does it by chance for
 * a free ephemeral port about once in 28,000 probes, which made "is the port already in use"
 * answer yes now and then. The probe must say no on such a port however often it is asked. */
static void test_self_connect_is_not_a_listener(void)
{
    long port = free_port();
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = loopback(port);
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    CHECK(bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0);
    CHECK(connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0); /* connected, to itself */
    close(fd);
    port = free_port();
    int said_open = 0;
    for (int i = 0; i < 2000; i++)
        said_open += tally__loopback_port_open(port);
    CHECK_INT(said_open, 0);
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "serve") == 0)
        return serve(strtol(argv[2], NULL, 10), argv[3]);
    for (int i = 0; i < 20; i++)
        test_not_connected_to();
    test_dies_at_start();
    test_port_busy();
    test_dies_between_runs();
    test_private_namespace();
    test_private_namespace_unprivileged();
    test_accept_own();
    test_self_connect_is_not_a_listener();
    return check_summary();
}
