/* The fan-out floor for scripts/bench-peer.sh (issue 57 §1): what delivering a page's messages
 * costs with nothing but the kernel's write. One thread, epoll; WebSocket pages connect (the
 * handshake only, RFC 6455 §4.2.2), then every message of a captured page is sent to every page
 * at its captured pace as one pre-framed buffer and one write(2) per page: no copy, no queue, no
 * bookkeeping beyond a page whose socket was full (its rest waits, newer messages skip it).
 *
 *   cc -O2 -o bare_writer scripts/bare_writer.c
 *   bare_writer capture.frames     (the records of `nats_replay.py frames capture.jsonl`)
 *
 * Prints "listening on http://127.0.0.1:PORT" once it listens; runs until killed. Each message's
 * 13-digit "ts" values are set to the moment it was due at its captured pace (a sweep that
 * outlasts the gap to the next message makes that one late, and its lateness counts), a patch's
 * "at" to the moment its sweep starts — as the other publishers do. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct { double at; uint32_t length; unsigned char *text; } Message;
typedef struct { int open; int upgraded; size_t got; char request[4096]; unsigned char *rest; size_t rest_length; } Page;

static Page *pages;
static int page_limit;

/* SHA-1 (FIPS 180-4), only for the handshake's accept key. */
static uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
static void sha1(const unsigned char *data, size_t length, unsigned char out[20]) {
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    size_t padded = ((length + 8) / 64 + 1) * 64;
    unsigned char *m = calloc(padded, 1);
    memcpy(m, data, length);
    m[length] = 0x80;
    uint64_t bits = (uint64_t)length * 8;
    for (int i = 0; i < 8; i++) m[padded - 1 - i] = (unsigned char)(bits >> (8 * i));
    for (size_t block = 0; block < padded; block += 64) {
        uint32_t w[80];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)m[block + 4 * i] << 24 | (uint32_t)m[block + 4 * i + 1] << 16 | (uint32_t)m[block + 4 * i + 2] << 8 | m[block + 4 * i + 3];
        for (int i = 16; i < 80; i++) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
        for (int i = 0; i < 80; i++) {
            uint32_t f, k;
            if (i < 20) { f = (b & c) | (~b & d); k = 0x5A827999; }
            else if (i < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1; }
            else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC; }
            else { f = b ^ c ^ d; k = 0xCA62C1D6; }
            uint32_t t = rotl(a, 5) + f + e + k + w[i];
            e = d; d = c; c = rotl(b, 30); b = a; a = t;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
    }
    free(m);
    for (int i = 0; i < 20; i++) out[i] = (unsigned char)(h[i / 4] >> (24 - 8 * (i % 4)));
}

static void base64(const unsigned char *in, size_t length, char *out) {
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < length; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < length ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < length ? in[i + 2] : 0);
        out[o++] = table[v >> 18 & 63];
        out[o++] = table[v >> 12 & 63];
        out[o++] = i + 1 < length ? table[v >> 6 & 63] : '=';
        out[o++] = i + 2 < length ? table[v & 63] : '=';
    }
    out[o] = 0;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int64_t epoch_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void drop(int epoll, int fd) {
    epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
    close(fd);
    free(pages[fd].rest);
    memset(&pages[fd], 0, sizeof(Page));
}

/* Reads what a page sent: the handshake first, then anything (discarded). */
static void readable(int epoll, int fd) {
    Page *page = &pages[fd];
    if (page->upgraded) {
        char sink[4096];
        ssize_t n = read(fd, sink, sizeof sink);
        if (n == 0 || (n < 0 && errno != EAGAIN)) drop(epoll, fd);
        return;
    }
    ssize_t n = read(fd, page->request + page->got, sizeof page->request - 1 - page->got);
    if (n <= 0) { if (n == 0 || errno != EAGAIN) drop(epoll, fd); return; }
    page->got += (size_t)n;
    page->request[page->got] = 0;
    if (!strstr(page->request, "\r\n\r\n")) {
        if (page->got >= sizeof page->request - 1) drop(epoll, fd);
        return;
    }
    char *key = strcasestr(page->request, "Sec-WebSocket-Key:");
    if (!key) { drop(epoll, fd); return; }
    key += strlen("Sec-WebSocket-Key:");
    while (*key == ' ') key++;
    char joined[128];
    size_t length = strcspn(key, "\r\n");
    if (length > 60) { drop(epoll, fd); return; }
    snprintf(joined, sizeof joined, "%.*s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", (int)length, key);
    unsigned char digest[20];
    char accept[32], answer[256];
    sha1((unsigned char *)joined, strlen(joined), digest);
    base64(digest, 20, accept);
    int size = snprintf(answer, sizeof answer,
                        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", accept);
    if (write(fd, answer, (size_t)size) != size) { drop(epoll, fd); return; }
    page->upgraded = 1;
}

/* A full socket drained: the rest of its message goes. */
static void writable(int epoll, int fd) {
    Page *page = &pages[fd];
    if (!page->rest) return;
    ssize_t n = write(fd, page->rest, page->rest_length);
    if (n < 0) { if (errno != EAGAIN) drop(epoll, fd); return; }
    if ((size_t)n < page->rest_length) {
        memmove(page->rest, page->rest + n, page->rest_length - (size_t)n);
        page->rest_length -= (size_t)n;
        return;
    }
    free(page->rest);
    page->rest = NULL;
    struct epoll_event event = {.events = EPOLLIN, .data.fd = fd};
    epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event);
}

/* One message to every page: its frame made once (server frames are unmasked, RFC 6455 §5.1). */
static void send_all(int epoll, const Message *message, unsigned char *frame, double due) {
    size_t header = 0;
    uint32_t length = message->length;
    frame[header++] = 0x81;
    if (length < 126) frame[header++] = (unsigned char)length;
    else if (length <= 65535) { frame[header++] = 126; frame[header++] = (unsigned char)(length >> 8); frame[header++] = (unsigned char)length; }
    else { frame[header++] = 127; for (int i = 7; i >= 0; i--) frame[header++] = (unsigned char)((uint64_t)length >> (8 * i)); }
    memcpy(frame + header, message->text, length);
    char ts[16], at[16];
    snprintf(ts, sizeof ts, "%013lld", (long long)(epoch_ms() - (now_seconds() - due) * 1000));
    snprintf(at, sizeof at, "%013lld", (long long)epoch_ms());
    for (unsigned char *p = frame + header; (p = memmem(p, frame + header + length - p, "\"ts\":", 5)); p += 5)
        if (p + 5 + 13 <= frame + header + length) memcpy(p + 5, ts, 13);
    static const char patch[] = "{\"type\":\"patch\",\"at\":";
    if (length >= sizeof patch - 1 + 13 && memcmp(frame + header, patch, sizeof patch - 1) == 0)
        memcpy(frame + header + sizeof patch - 1, at, 13);
    size_t total = header + length;
    for (int fd = 0; fd < page_limit; fd++) {
        Page *page = &pages[fd];
        if (!page->upgraded || page->rest) continue;
        ssize_t n = write(fd, frame, total);
        if (n == (ssize_t)total) continue;
        if (n < 0 && errno != EAGAIN) { drop(epoll, fd); continue; }
        size_t sent = n < 0 ? 0 : (size_t)n;
        page->rest_length = total - sent;
        page->rest = malloc(page->rest_length);
        memcpy(page->rest, frame + sent, page->rest_length);
        struct epoll_event event = {.events = EPOLLIN | EPOLLOUT, .data.fd = fd};
        epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: bare_writer capture.frames\n"); return 2; }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 1; }
    Message *messages = NULL;
    size_t count = 0, capacity = 0, longest = 0;
    for (;;) {
        double at;
        uint32_t length;
        if (fread(&at, sizeof at, 1, file) != 1 || fread(&length, sizeof length, 1, file) != 1) break;
        if (count == capacity) messages = realloc(messages, (capacity = capacity * 2 + 64) * sizeof(Message));
        messages[count].at = at;
        messages[count].length = length;
        messages[count].text = malloc(length);
        if (fread(messages[count].text, 1, length, file) != length) break;
        if (length > longest) longest = length;
        count++;
    }
    fclose(file);
    if (count == 0) { fprintf(stderr, "nothing captured\n"); return 1; }
    double span = messages[count - 1].at + 0.1;
    unsigned char *frame = malloc(longest + 16);

    /* A page the load generator reset must not end the writer: its write fails with EPIPE, the
     * page is dropped (SIGPIPE's default would end the process — at 10,000 pages it did). */
    signal(SIGPIPE, SIG_IGN);
    page_limit = 1 << 17;
    pages = calloc((size_t)page_limit, sizeof(Page));
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int on = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t address_length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 4096)) { perror("listen"); return 1; }
    getsockname(listener, (struct sockaddr *)&address, &address_length);
    printf("listening on http://127.0.0.1:%d\n", ntohs(address.sin_port));
    fflush(stdout);

    int epoll = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event);
    struct epoll_event ready[512];
    double began = now_seconds();
    size_t next = 0, cycle = 0;
    for (;;) {
        double due = began + (double)cycle * span + messages[next].at;
        int wait = (int)((due - now_seconds()) * 1000);
        int n = epoll_wait(epoll, ready, 512, wait > 0 ? wait : 0);
        for (int i = 0; i < n; i++) {
            int fd = ready[i].data.fd;
            if (fd == listener) {
                int page;
                while ((page = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (page >= page_limit) { close(page); continue; }
                    setsockopt(page, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
                    pages[page].open = 1;
                    struct epoll_event added = {.events = EPOLLIN, .data.fd = page};
                    epoll_ctl(epoll, EPOLL_CTL_ADD, page, &added);
                }
                continue;
            }
            if (ready[i].events & (EPOLLERR | EPOLLHUP)) { drop(epoll, fd); continue; }
            if (ready[i].events & EPOLLOUT) writable(epoll, fd);
            if (pages[fd].open && (ready[i].events & EPOLLIN)) readable(epoll, fd);
        }
        /* One message a turn: behind its pace (a sweep of 19,800 pages takes most of the gap
         * between two), the writer still looks at its listener and its pages' handshakes
         * between messages, as a server must, instead of sending its backlog first. */
        double due_now = began + (double)cycle * span + messages[next].at;
        if (now_seconds() >= due_now) {
            send_all(epoll, &messages[next], frame, due_now);
            if (++next == count) { next = 0; cycle++; }
        }
    }
}
