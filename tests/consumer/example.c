/* The README's example: two boxes, then a batch query. */
#include <sepax.h>
#include <stdio.h>

int main(void) {
    sepax_shapes *store = sepax_shapes_create(16);
    sepax_vec2 box_a[4] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    sepax_vec2 box_b[4] = {{1.5f, 0.5f}, {3, 0.5f}, {3, 1.5f}, {1.5f, 1.5f}};
    uint32_t a, b;
    if (sepax_shapes_add_polygon(store, box_a, 4, &a) != SEPAX_OK ||
        sepax_shapes_add_polygon(store, box_b, 4, &b) != SEPAX_OK)
        return 1;
    sepax_pair pairs[2] = {{a, b}, {b, a}};
    sepax_hit hits[2];
    sepax_status st = sepax_collide(store, pairs, 2, hits);
    if (st != SEPAX_OK) return fprintf(stderr, "%s\n", sepax_status_str(st)), 1;
    for (int i = 0; i < 2; i++)
        printf("hit %u normal (%g, %g) depth %g [%s]\n", hits[i].hit, hits[i].normal.x,
               hits[i].normal.y, hits[i].depth, sepax_backend_name(sepax_get_backend()));
    sepax_shapes_destroy(store);
    return 0;
}
