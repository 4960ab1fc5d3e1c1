#include "CLoadEpoll.h"

#include <sys/epoll.h>

int load_epoll_open(void) { return epoll_create1(EPOLL_CLOEXEC); }

int load_epoll_watch(int epoll, int fd, uint32_t page, int writable, int add) {
    struct epoll_event event = {.events = EPOLLIN | (writable ? EPOLLOUT : 0), .data.u32 = page};
    return epoll_ctl(epoll, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

int load_epoll_wait(int epoll, load_event *out, int max, int timeout_ms) {
    struct epoll_event raw[512];
    int count = epoll_wait(epoll, raw, max < 512 ? max : 512, timeout_ms);
    for (int i = 0; i < count; i++) {
        out[i].page = raw[i].data.u32;
        out[i].readable = (raw[i].events & EPOLLIN) != 0;
        out[i].writable = (raw[i].events & EPOLLOUT) != 0;
        out[i].ended = (raw[i].events & (EPOLLHUP | EPOLLERR)) != 0;
    }
    return count;
}
