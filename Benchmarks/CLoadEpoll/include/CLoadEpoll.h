// epoll for sise-load (Glibc's Swift module does not carry <sys/epoll.h>): a page's descriptor is
// watched under its index, and each wait hands back plain (index, readable, writable, ended)
// records instead of the kernel's packed struct.
#ifndef C_LOAD_EPOLL_H
#define C_LOAD_EPOLL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint32_t page;
    bool readable;
    bool writable;
    /// Hung up or failed: the next read says how.
    bool ended;
} load_event;

/// A new epoll instance (-1 and errno on failure).
int load_epoll_open(void);

/// Watches `fd` as page `page`: for reading, and for writing too while `writable` (a connect in
/// progress). `add`: first registration, else a change. 0, or -1 and errno.
int load_epoll_watch(int epoll, int fd, uint32_t page, int writable, int add);

/// Waits up to `timeout_ms` for at most `max` (≤ 512) events into `out`; their count, or -1.
int load_epoll_wait(int epoll, load_event *out, int max, int timeout_ms);

#endif
