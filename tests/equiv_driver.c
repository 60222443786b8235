/* Plain equivalence driver: the Criterion suite's checks without Criterion,
 * for targets where its runner cannot run (it hangs under qemu-aarch64).
 * Usage: sepax-equiv [--rounds N] [--pairs N] [--kernel NAME] [--require NAME]
 * Prints one line per check and ends with "N passed, N failed". A run that checked no kernel
 * copy, or not the one --require names (the cross stage's NEON copy), fails: a run that only
 * skipped must not read as a pass. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int passed, failed;

static void report(const char *kernel, const char *check, size_t bad, size_t compared,
                   const check_msg *msg) {
    if (bad) {
        failed++;
        printf("FAIL %-16s %-12s %zu mismatches of %zu: %s\n", kernel, check, bad, compared,
               msg->text);
    } else {
        passed++;
        printf("ok   %-16s %-12s %zu results bit-identical\n", kernel, check, compared);
    }
    fflush(stdout);
}

int main(int argc, char **argv) {
    int rounds = 10;
    wl_config cfg = wl_default();
    const char *only = NULL, *require = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--pairs") == 0 && i + 1 < argc)
            cfg.pairs = strtoul(argv[++i], 0, 10);
        else if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--require") == 0 && i + 1 < argc)
            require = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--rounds N] [--pairs N] [--kernel NAME] [--require NAME]\n",
                    argv[0]);
            return 2;
        }
    }
    cfg.pairs = test_pairs(cfg.pairs);
    int checked = 0, required_checked = 0;
    for (int i = 0; i < test_kernel_count(); i++) {
        const test_kernel *t = test_kernel_at(i);
        if (only && strcmp(only, t->name) != 0) continue;
        if (!t->runnable) {
            printf("skip %-16s (this CPU lacks it)\n", t->name);
            continue;
        }
        checked++;
        required_checked |= require && strcmp(require, t->name) == 0;
        check_msg msg = {""};
        size_t compared = 0, bad = check_tails(t->k, 49, &msg);
        report(t->name, "tails 0..49", bad, 50 * 4 * 3 * 3, &msg);
        compared = 0;
        bad = check_lengths(t->k, &compared, &msg);
        report(t->name, "lengths", bad, compared, &msg);
        compared = 0;
        bad = check_far_store(t->k, &compared, &msg);
        report(t->name, "far store", bad, compared, &msg);
        compared = 0;
        bad = check_adversarial(t->k, &compared, &msg);
        report(t->name, "adversarial", bad, compared, &msg);
        compared = 0;
        bad = check_update(t->k, &compared, &msg);
        report(t->name, "poses", bad, compared, &msg);
        compared = 0;
        bad = check_pose_kernel(t->k, &compared, &msg);
        report(t->name, "pose batches", bad, compared, &msg);
        compared = 0;
        bad = check_rot_kernel(t->k, &compared, &msg);
        report(t->name, "rot", bad, compared, &msg);
        compared = 0;
        bad = check_random_rounds(t->k, cfg, rounds, &compared, &msg);
        report(t->name, "random", bad, compared, &msg);
        static const char *const kind_names[] = {"random", "mixed", "circles"};
        for (int kinds = WL_MIXED; kinds <= WL_CIRCLES; kinds++) {
            wl_config c = cfg;
            c.kinds = kinds;
            compared = 0;
            bad = check_random_rounds(t->k, c, rounds, &compared, &msg);
            report(t->name, kind_names[kinds], bad, compared, &msg);
        }
    }
    if (checked == 0) {
        failed++;
        printf("FAIL no kernel copy checked%s%s\n", only ? ": none runnable named " : "",
               only ? only : "");
    }
    if (require && !required_checked) {
        failed++;
        printf("FAIL %s, required, was not checked (not built, not runnable, or left out)\n",
               require);
    }
    uint64_t hash = determinism_hash();
    if (hash == SEPAX_DETERMINISM_HASH) {
        passed++;
        printf("ok   determinism hash %016llx, as committed\n", (unsigned long long)hash);
    } else {
        failed++;
        printf("FAIL determinism hash %016llx, committed %016llx\n", (unsigned long long)hash,
               (unsigned long long)SEPAX_DETERMINISM_HASH);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
