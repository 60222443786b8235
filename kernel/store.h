/* The shape store's private layout, shared by the store, the query entry
 * points and the kernels. */
#ifndef SEPAX_STORE_H
#define SEPAX_STORE_H

#include "sepax.h"

/* One polygon as the kernels read it: 160 bytes, five rows of 8 lanes, 32-byte
 * aligned, so a plane row or a vertex row is a single aligned 8-float load and
 * no load ever leaves the record. Rows past the vertex count repeat the last
 * real vertex and the last real plane: minima and maxima over all 8 lanes then
 * equal those over the real ones, and the lowest-index tie rule still picks
 * the real plane. (A plane built from two repeated vertices would have a zero
 * normal and a false separation of 0, which is why planes are padded too.) */
typedef struct sepax_poly_rec {
    float x[SEPAX_MAX_VERTS];
    float y[SEPAX_MAX_VERTS];
    float nx[SEPAX_MAX_VERTS];
    float ny[SEPAX_MAX_VERTS];
    float c[SEPAX_MAX_VERTS];
} sepax_poly_rec;

/* The same polygons again, eight to a block, transposed: row k holds vertex
 * (or plane) k of eight consecutive shapes. One shape against a range of
 * shapes then runs with a lane per target shape, straight from memory, with
 * no gather and no horizontal reduction. Lanes past the last shape are zero
 * and their results are never written. */
#define SEPAX_BLOCK_LANES 8

typedef struct sepax_poly_block {
    float x[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float y[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float nx[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float ny[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float c[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
} sepax_poly_block;

struct sepax_shapes {
    sepax_poly_rec *rec;     /* cap records, 64-byte aligned */
    sepax_poly_block *block; /* cap / SEPAX_BLOCK_LANES blocks, 64-byte aligned */
    uint8_t *nverts;         /* cap vertex counts */
    uint32_t count;
    uint32_t cap; /* a multiple of 16 */
};

/* Shapes a store can hold: ids are uint32_t and record bytes must fit size_t. */
#define SEPAX_STORE_MAX_SHAPES 0x7fffffffu

#endif
