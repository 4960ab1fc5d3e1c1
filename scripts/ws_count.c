/* An independent WebSocket client for scripts/bench-peer.sh (issue 57): N pages on one thread
 * with epoll, nothing shared with sise-load (no NIO, no Swift), counting the messages a server
 * delivers and the server's CPU over the same window — the check that sise-load's figures are the
 * server's and not the load generator's.
 *
 *   cc -O2 -o ws_count scripts/ws_count.c
 *   ws_count PORT PATH N SECONDS PID [FIRST_MESSAGE]
 *
 * Each page connects to 127.0.0.1:PORT, asks for PATH with the RFC 6455 handshake (no extension
 * offered), sends FIRST_MESSAGE as one masked text frame once upgraded (Sise's view), answers
 * pings, and counts every complete data message. Once every page is upgraded (or 30 s have
 * passed) and 2 s more, it counts for SECONDS and prints one line:
 *   connected C  messages M  cpu X%  cpu/message Y us
 * where cpu is PID's user + system time over the window (from /proc), as sise-load reports it;
 * then, from the rows of about 1,000 of the pages (every N/1000-th), the latency of each row as
 * sise-load times it — from the row's "ts" (Sise's is the exchange's tick; the peers' publisher
 * stamps the moment the message was due) and from a patch's "at" (when Sise's hub published it,
 * or when a peer's publisher handed it over):
 *   rows R  cpu/row Z us  [published p50 C ms  published p99 D ms]  p50 A ms  p99 B ms
 * (R: the measuring pages' rows times the sample: an estimate of every page's). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { HANDSHAKE, OPEN, CLOSED };
typedef struct {
    int fd, state, measures;
    size_t have;           /* bytes buffered: the handshake's answer, then an unfinished frame */
    size_t capacity;
    unsigned char *buffer;
} Page;

static long long messages;
static int counting;

/* Latencies in 1 ms buckets up to 60 s: of the rows' "ts", and of their patches' "at" (per row). */
enum { BUCKETS = 60001 };
static long long from_stamp[BUCKETS], from_publish[BUCKETS];

static long long epoch_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void record(long long *histogram, long long stamp, long long at, long long count) {
    long long ms = at - stamp;
    histogram[ms < 0 ? 0 : ms > BUCKETS - 1 ? BUCKETS - 1 : ms] += count;
}

/* 13 digits at p (an epoch in ms), or -1. */
static long long digits13(const unsigned char *p, const unsigned char *end) {
    if (end - p < 13) return -1;
    long long value = 0;
    for (int i = 0; i < 13; i++) {
        if (p[i] < '0' || p[i] > '9') return -1;
        value = value * 10 + (p[i] - '0');
    }
    return value;
}

/* Times a data message's rows: every "ts":<13 digits>, and a patch's leading "at". */
static void time_rows(const unsigned char *m, size_t length) {
    long long received = epoch_ms(), rows = 0;
    const unsigned char *end = m + length, *p = m;
    while ((p = memmem(p, end - p, "\"ts\":", 5)) != NULL) {
        long long stamp = digits13(p + 5, end);
        p += 5;
        if (stamp < 0) continue;
        record(from_stamp, stamp, received, 1);
        rows++;
    }
    static const char patch[] = "{\"type\":\"patch\",\"at\":";
    if (rows && length > sizeof patch - 1 && memcmp(m, patch, sizeof patch - 1) == 0) {
        long long at = digits13(m + sizeof patch - 1, end);
        if (at >= 0) record(from_publish, at, received, rows);
    }
}

static double percentile(const long long *histogram, double p, long long *total) {
    long long all = 0, seen = 0;
    for (int i = 0; i < BUCKETS; i++) all += histogram[i];
    *total = all;
    if (!all) return -1;
    long long target = (long long)(all * p + 0.999999);
    for (int i = 0; i < BUCKETS; i++) {
        seen += histogram[i];
        if (seen >= target) return i;
    }
    return BUCKETS - 1;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu_seconds(int pid) {
    char path[64], text[4096];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t length = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[length] = 0;
    char *p = strrchr(text, ')'); /* the command's name may hold spaces */
    if (!p) return -1;
    unsigned long utime = 0, stime = 0;
    /* after ")": state, then fields 4..13; utime and stime are fields 14 and 15 */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2) return -1;
    return (double)(utime + stime) / sysconf(_SC_CLK_TCK);
}

/* One masked frame from the client (RFC 6455 §5.3: a client masks every frame). */
static void send_frame(int fd, int opcode, const unsigned char *payload, size_t length) {
    unsigned char frame[16 + 4096];
    if (length > 4096) return;
    size_t at = 0;
    frame[at++] = 0x80 | opcode;
    if (length < 126) {
        frame[at++] = 0x80 | length;
    } else {
        frame[at++] = 0x80 | 126;
        frame[at++] = length >> 8;
        frame[at++] = length & 0xff;
    }
    unsigned char mask[4] = {0x12, 0x34, 0x56, 0x78};
    memcpy(frame + at, mask, 4);
    at += 4;
    for (size_t i = 0; i < length; i++) frame[at + i] = payload[i] ^ mask[i % 4];
    if (write(fd, frame, at + length) < 0) { /* a page that cannot take its pong: left to close */ }
}

/* Consumes the complete frames in the page's buffer; what is left is an unfinished frame. */
static void read_frames(Page *page) {
    size_t at = 0;
    for (;;) {
        if (page->have - at < 2) break;
        unsigned char *f = page->buffer + at;
        int fin = f[0] & 0x80, opcode = f[0] & 0x0f;
        uint64_t length = f[1] & 0x7f;
        size_t header = 2;
        if (length == 126) {
            if (page->have - at < 4) break;
            length = (f[2] << 8) | f[3];
            header = 4;
        } else if (length == 127) {
            if (page->have - at < 10) break;
            length = 0;
            for (int i = 0; i < 8; i++) length = (length << 8) | f[2 + i];
            header = 10;
        }
        if (f[1] & 0x80) header += 4; /* a server never masks; tolerated */
        if (page->have - at < header + length) {
            if (header + length > page->capacity) {
                page->capacity = header + length;
                if (at > 0) { memmove(page->buffer, f, page->have - at); page->have -= at; at = 0; }
                page->buffer = realloc(page->buffer, page->capacity);
            }
            break;
        }
        if (opcode == 0x9) send_frame(page->fd, 0xA, f + header, length);
        else if (opcode == 0x8) page->state = CLOSED;
        else if (fin && opcode != 0xA && counting) {
            messages++;
            if (page->measures && (opcode == 0x1 || opcode == 0x2)) time_rows(f + header, length);
        }
        at += header + length;
    }
    memmove(page->buffer, page->buffer + at, page->have - at);
    page->have -= at;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: ws_count PORT PATH N SECONDS PID [FIRST_MESSAGE]\n");
        return 2;
    }
    int port = atoi(argv[1]), n = atoi(argv[3]), pid = atoi(argv[5]);
    const char *path = argv[2], *first = argc > 6 ? argv[6] : NULL;
    double seconds = atof(argv[4]);
    Page *pages = calloc(n, sizeof(Page));
    int ep = epoll_create1(0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    char request[512];
    int request_length = snprintf(request, sizeof request,
        "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        path, port);
    int opened = 0, upgraded = 0;
    struct epoll_event events[256];
    double started = now(), ready_at = 0, window_start = 0, cpu_start = 0;
    for (;;) {
        /* Connect at most 2,000 a second (sise-load's pace), in steps of 20 a round: a listen
         * queue is not flooded (a round can take far less than epoll_wait's 10 ms). */
        int allowed = (int)((now() - started) * 2000) + 20;
        for (int k = 0; k < 20 && opened < n && opened < allowed; k++, opened++) {
            Page *page = &pages[opened];
            page->measures = opened % (n / 1000 > 1 ? n / 1000 : 1) == 0;
            page->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            page->capacity = 65536;
            page->buffer = malloc(page->capacity);
            if (page->fd < 0) { page->state = CLOSED; continue; }
            if (connect(page->fd, (struct sockaddr *)&address, sizeof address) < 0 && errno != EINPROGRESS) {
                page->state = CLOSED;
                continue;
            }
            struct epoll_event e = {.events = EPOLLIN | EPOLLOUT, .data.u32 = opened};
            epoll_ctl(ep, EPOLL_CTL_ADD, page->fd, &e);
        }
        int ready = epoll_wait(ep, events, 256, 10);
        for (int i = 0; i < ready; i++) {
            Page *page = &pages[events[i].data.u32];
            if (page->state == CLOSED) continue;
            if (events[i].events & EPOLLOUT) { /* connected: the handshake's request, then only reads */
                if (write(page->fd, request, request_length) != request_length) page->state = CLOSED;
                struct epoll_event e = {.events = EPOLLIN, .data.u32 = events[i].data.u32};
                epoll_ctl(ep, EPOLL_CTL_MOD, page->fd, &e);
                if (page->state == CLOSED) { close(page->fd); continue; }
            }
            if (!(events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) continue;
            for (;;) {
                ssize_t got = read(page->fd, page->buffer + page->have, page->capacity - page->have);
                if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) { page->state = CLOSED; break; }
                if (got < 0) break;
                page->have += got;
                if (page->state == HANDSHAKE) {
                    unsigned char *end = memmem(page->buffer, page->have, "\r\n\r\n", 4);
                    if (!end) {
                        if (page->have == page->capacity) page->state = CLOSED;
                        continue;
                    }
                    if (memcmp(page->buffer, "HTTP/1.1 101", 12) != 0) { page->state = CLOSED; break; }
                    size_t head = end + 4 - page->buffer;
                    memmove(page->buffer, page->buffer + head, page->have - head);
                    page->have -= head;
                    page->state = OPEN;
                    upgraded++;
                    if (first) send_frame(page->fd, 0x1, (const unsigned char *)first, strlen(first));
                }
                read_frames(page);
                if (page->state == CLOSED) break;
                if (page->have == page->capacity) break; /* read_frames grew it; the next round reads on */
            }
            if (page->state == CLOSED) close(page->fd);
        }
        double t = now();
        if (!ready_at && opened == n && (upgraded == n || t - started > 30)) ready_at = t;
        if (ready_at && !counting && t - ready_at >= 2) {
            counting = 1;
            window_start = t;
            cpu_start = cpu_seconds(pid);
        }
        if (counting && t - window_start >= seconds) break;
    }
    double wall = now() - window_start, cpu = cpu_seconds(pid) - cpu_start;
    int connected = 0;
    for (int i = 0; i < n; i++) connected += pages[i].state == OPEN;
    printf("connected %d  messages %lld  cpu %.1f%%  cpu/message %.1f us", connected, messages, cpu / wall * 100,
           messages ? cpu / messages * 1e6 : 0.0);
    int sample = n / 1000 > 1 ? n / 1000 : 1;
    /* As sise-load says them: "published" first, so the line's last p50/p99 are the rows' "ts". */
    long long rows = 0, published = 0;
    double q50 = percentile(from_publish, 0.5, &published), q99 = percentile(from_publish, 0.99, &published);
    double p50 = percentile(from_stamp, 0.5, &rows), p99 = percentile(from_stamp, 0.99, &rows);
    if (rows) printf("  rows %lld  cpu/row %.2f us", rows * sample, cpu / (rows * sample) * 1e6);
    if (published) printf("  published p50 %.1f ms  published p99 %.1f ms", q50, q99);
    if (rows) printf("  p50 %.1f ms  p99 %.1f ms", p50, p99);
    printf("\n");
    return 0;
}
