#define _POSIX_C_SOURCE 200809L
#include "frame_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *g_name = "sepax-bench";

void frame_set_name(const char *name) { g_name = name; }

double frame_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

void frame_die(const char *what, sepax_status st) {
    fprintf(stderr, "%s: %s: %s\n", g_name, what, sepax_status_str(st));
    exit(1);
}

void *frame_xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "%s: out of memory\n", g_name);
        exit(1);
    }
    return p;
}

static int dbl_cmp(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

double frame_median(const double *v, uint32_t n) {
    double *c = frame_xmalloc(n * sizeof *c);
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, dbl_cmp);
    double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    free(c);
    return m;
}

double frame_median_sz(const size_t *v, uint32_t n) {
    double *d = frame_xmalloc(n * sizeof *d);
    for (uint32_t i = 0; i < n; i++) d[i] = (double)v[i];
    double m = frame_median(d, n);
    free(d);
    return m;
}

void frame_evict(uint32_t mb) {
    static unsigned char *buf;
    static size_t have;
    static unsigned char round;
    size_t size = (size_t)mb << 20;
    if (size == 0) return;
    if (size > have) {
        free(buf);
        buf = frame_xmalloc(size);
        have = size;
    }
    /* a new value each time, and one read back, so no pass can be left out */
    memset(buf, ++round, size);
    volatile unsigned char sink = buf[size - 1];
    (void)sink;
}

uint32_t frame_arg_u32(const char *v) { return (uint32_t)strtoul(v, NULL, 10); }

uint64_t frame_next(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

float frame_unit(uint64_t *x) { return (float)(frame_next(x) >> 40) * (1.0f / 16777216.0f); }
