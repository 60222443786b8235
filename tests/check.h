/* Equivalence checks of kernel copies against the scalar reference, shared
 * by the Criterion tests and the plain driver (which runs where Criterion
 * cannot, e.g. under qemu-aarch64). Every check returns the number of
 * mismatches and describes the first one in `msg`. */
#ifndef SEPAX_CHECK_H
#define SEPAX_CHECK_H

#include <stdio.h>

#include "exact.h"
#include "kernel.h"
#include "workload.h"

typedef struct test_kernel {
    const char *name;
    const sepax_kernel *k;
    int runnable; /* 0 when this CPU lacks the ISA */
} test_kernel;

/* Every kernel copy linked into the test programs, emulated ones included. */
int test_kernel_count(void);
const test_kernel *test_kernel_at(int i);
const test_kernel *find_test_kernel(const char *name);

/* Whether SEPAX_TEST_SKIP_KERNELS (names, comma-separated) leaves this copy out of the
 * equivalence tests (test_equivalence.c; the other tests still run every copy): the valgrind
 * stage of tools/test.sh leaves out the emulated copies whose lanes a native or another
 * emulated copy already runs there. */
int test_kernel_left_out(const char *name);

typedef struct check_msg {
    char text[512];
} check_msg;

/* Random workload rounds: `rounds` stores of cfg->shapes polygons with
 * cfg->pairs pairs each (seed advanced per round); overlap and collide on
 * the pair list, overlap_one for a few probes against the whole store. */
size_t check_random_rounds(const sepax_kernel *k, wl_config cfg, int rounds, size_t *compared,
                           check_msg *msg);

/* Lists of lengths around the kernel's chunks (polygons and mixed kinds), each
 * through check_store. */
size_t check_lengths(const sepax_kernel *k, size_t *compared, check_msg *msg);

/* A store past SEPAX_FAR_SWEEP shapes (polygons and mixed kinds) through check_store: the
 * pair loops that ask for records ahead (the other checks' stores are smaller). */
size_t check_far_store(const sepax_kernel *k, size_t *compared, check_msg *msg);

/* One store and pair list: overlap, collide, and overlap_one for `probes`
 * probes spread over the store against all of it. */
size_t check_store(const sepax_kernel *k, const sepax_shapes *s, const sepax_pair *pairs, size_t n,
                   int probes, size_t *compared, check_msg *msg);

/* A kernel copy's manifolds, the way sepax_collide_manifold makes them:
 * its collide with the winning axes (hits and axes are n-long scratch),
 * then the library's contact step. */
void kernel_manifold(const sepax_kernel *k, const sepax_shapes *s, const sepax_pair *pairs,
                     size_t n, float margin, sepax_hit *hits, uint8_t *axes, sepax_manifold *out,
                     void *work);

/* A kernel's work memory (kernel.h: SEPAX_WORK_BYTES, 64-aligned), filled with a new
 * pattern of NaNs and garbage each time it is handed out, whose bits the kernel must not
 * depend on. One buffer: for one call at a time. */
void *test_work(void);

/* Sweeps of the pairs with velocities from still to 1000 units a step, both
 * shapes moving and only B, against the reference bit for bit. */
size_t check_sweep(const sepax_kernel *k, const sepax_shapes *s, const sepax_pair *pairs, size_t n,
                   size_t *compared, check_msg *msg);

/* A shape's world core and radius in double precision, for exact.c's checks. */
exact_shape exact_of_view(const sepax_shape_view *v);

/* A test ray for pair i: from A towards B (or from inside B), of every
 * length and max fraction; the shape it is cast against is the pair's B. */
sepax_ray test_ray(const sepax_shapes *s, sepax_pair p, size_t i);

/* Rays of the pairs (test_ray) against their B, batched, and `probes` of
 * them against the whole store (raycast_range), against the reference. */
size_t check_rays(const sepax_kernel *k, const sepax_shapes *s, const sepax_pair *pairs, size_t n,
                  int probes, size_t *compared, check_msg *msg);

/* All pairs of the adversarial store, overlap, collide and overlap_one. */
size_t check_adversarial(const sepax_kernel *k, size_t *compared, check_msg *msg);

/* Random poses on the default store: the kernel's world update against the
 * reference's, bit for bit (vertices, planes, bounds), then the queries on
 * the moved shapes. */
size_t check_update(const sepax_kernel *k, size_t *compared, check_msg *msg);

/* The kernel's batch check of poses against the rules one pose at a time (pose_rules.h) on
 * batches of 0..40 poses with values at the rules' edges, and its transpose into pose blocks
 * against the plain loop. */
size_t check_pose_kernel(const sepax_kernel *k, size_t *compared, check_msg *msg);
/* The kernel's sepax_rot batch against sepax_rot, bit for bit, over 200k angles: NaNs,
 * infinities, the domain's edges, each quadrant's boundaries, random bits; every start and
 * length mod 4; nothing written outside out[0 .. n-1]. */
size_t check_rot_kernel(const sepax_kernel *k, size_t *compared, check_msg *msg);

/* Every batch size 0..max_n at every output offset 0..3, with marker bytes
 * before and after the output that must survive. */
size_t check_tails(const sepax_kernel *k, size_t max_n, check_msg *msg);

/* One hash over the default workload's store (every vertex and plane), the
 * reference's overlap, collide, manifold, sweep and raycast answers for 100k
 * of its pairs, and 10k rotations from sepax_rot. Every backend equals the reference bit for bit
 * (checked above), so equal hashes on x86-64 and aarch64 mean equal bits on
 * both. Changing the workload generator changes it: update the constant. */
/* `dflt`, or SEPAX_TEST_PAIRS from the environment when smaller: the
 * valgrind stage of tools/test.sh runs the same checks on fewer pairs. */
size_t test_pairs(size_t dflt);

#define SEPAX_DETERMINISM_HASH 0x05ba1c35381dc4f3ull
uint64_t determinism_hash(void);

#endif
