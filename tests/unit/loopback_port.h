/* A TCP port on 127.0.0.1 that nobody listens on now: the kernel's choice for an ephemeral
 * bind, so tests on a shared machine do not collide on a fixed port. */
#ifndef TALLY_TESTS_LOOPBACK_PORT_H
#define TALLY_TESTS_LOOPBACK_PORT_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static long free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0)
        a.sin_port = htons(5287);
    if (fd >= 0)
        close(fd);
    return ntohs(a.sin_port);
}

#endif /* TALLY_TESTS_LOOPBACK_PORT_H */
