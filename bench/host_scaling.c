/* sepax-host-scaling: what a second thread buys on this machine right now, without sepax.
 * A frame's ratio between two threads and one (sepax-bench-frame --threads 1,2) can only be
 * read against the machine's own: on a virtual machine, two vCPUs may scale as two cores
 * one minute and not the next. Two loops, each timed on one thread and on two (best of the
 * repetitions):
 *   compute: independent chains of multiply-adds in registers, the same work per thread;
 *   memory: a copy of a buffer larger than the caches (read one array, write another),
 *           split in halves, one per thread.
 * Prints each loop's speed-up of two threads over one, and (on x86-64) the core's clock
 * as one thread sees it: a chain of dependent 64-bit multiplies, 3 cycles each on Intel's
 * cores since Nehalem and AMD's Zen cores (not on some low-power ones), so a kernel's ns a
 * pair converts to cycles and, with its instructions a pair (bench/callgrind.sh), to
 * instructions a cycle.
 *   sepax-host-scaling [--mb M] [--reps R]   (defaults: 256 MB per array, 7 repetitions) */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { CHAINS = 16, COMPUTE_STEPS = 20000000 };

typedef struct job {
    int compute;
    float *src, *dst;
    size_t n;
    float out;
} job;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *run(void *arg) {
    job *j = arg;
    if (j->compute) {
        float x[CHAINS];
        for (int c = 0; c < CHAINS; c++) x[c] = 1.0f + (float)c * 1e-3f;
        for (long k = 0; k < COMPUTE_STEPS; k++)
            for (int c = 0; c < CHAINS; c++) x[c] = x[c] * 0.9999f + 1e-4f;
        float s = 0.0f;
        for (int c = 0; c < CHAINS; c++) s += x[c];
        j->out = s;
    } else {
        for (size_t i = 0; i < j->n; i++) j->dst[i] = j->src[i] + 1.0f;
        j->out = j->dst[j->n / 2];
    }
    return NULL;
}

#if defined(__x86_64__)
/* GHz from `steps` x 4 dependent imuls (3 cycles each), the best of reps */
static double clock_ghz(long steps, int reps) {
    double best = 0.0;
    for (int r = 0; r < reps; r++) {
        unsigned long long x = 3;
        double t0 = now_s();
        for (long k = 0; k < steps; k++)
            __asm__ volatile("imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0" : "+r"(x));
        double ghz = 12.0 * (double)steps / ((now_s() - t0) * 1e9);
        best = ghz > best ? ghz : best;
    }
    return best;
}
#endif

/* Seconds for `threads` threads (1 or 2) to run the loop, the best of reps. */
static double timed(int compute, int threads, float *src, float *dst, size_t n, int reps) {
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        job jobs[2];
        pthread_t tid[2];
        double t0 = now_s();
        for (int t = 0; t < threads; t++) {
            size_t begin = n * (size_t)t / (size_t)threads, end = n * (size_t)(t + 1) / threads;
            jobs[t] = (job){compute, src + begin, dst + begin, end - begin, 0.0f};
            if (pthread_create(&tid[t], NULL, run, &jobs[t])) {
                fprintf(stderr, "sepax-host-scaling: pthread_create failed\n");
                exit(1);
            }
        }
        for (int t = 0; t < threads; t++) pthread_join(tid[t], NULL);
        double dt = now_s() - t0;
        best = dt < best ? dt : best;
    }
    return best;
}

int main(int argc, char **argv) {
    long mb = 256, reps = 7;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mb") && i + 1 < argc) {
            mb = strtol(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = strtol(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: %s [--mb M] [--reps R]\n", argv[0]);
            return 2;
        }
    }
    if (mb < 1 || mb > 65536 || reps < 1 || reps > 1000) {
        fprintf(stderr, "sepax-host-scaling: --mb 1..65536, --reps 1..1000\n");
        return 2;
    }
    size_t n = (size_t)mb * 1024 * 1024 / sizeof(float);
    float *src = malloc(n * sizeof *src), *dst = malloc(n * sizeof *dst);
    if (!src || !dst) {
        fprintf(stderr, "sepax-host-scaling: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) src[i] = (float)(i & 1023);
    memset(dst, 0, n * sizeof *dst); /* mapped before the first timing */
    /* the compute loop gives each thread the whole work: two threads do twice as much */
    double c1 = timed(1, 1, src, dst, n, (int)reps), c2 = timed(1, 2, src, dst, n, (int)reps);
    double m1 = timed(0, 1, src, dst, n, (int)reps), m2 = timed(0, 2, src, dst, n, (int)reps);
    printf("| loop | 1 thread ms | 2 threads ms | 2 threads / 1 |\n|---|---:|---:|---:|\n");
    printf("| compute (the same work per thread) | %.2f | %.2f | %.2fx |\n", c1 * 1e3, c2 * 1e3,
           2.0 * c1 / c2);
    printf("| memory (copy %ld MB, split) | %.2f | %.2f | %.2fx |\n", mb, m1 * 1e3, m2 * 1e3,
           m1 / m2);
#if defined(__x86_64__)
    printf("\ncore clock: %.2f GHz (one thread, dependent 3-cycle multiplies, best of %ld)\n",
           clock_ghz(100000000L, (int)reps), reps);
#endif
    free(src);
    free(dst);
    return 0;
}
