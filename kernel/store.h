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

/* What a shape is in its own frame: vertices and edge normals, transposed
 * like sepax_poly_block (offsets are recomputed in world space). */
typedef struct sepax_local_block {
    float x[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float y[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float nx[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float ny[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
} sepax_local_block;

/* The local shape again, one record per shape, for the update of the
 * per-shape world records (a lane per vertex, no transposition). */
typedef struct sepax_local_rec {
    float x[SEPAX_MAX_VERTS];
    float y[SEPAX_MAX_VERTS];
    float nx[SEPAX_MAX_VERTS];
    float ny[SEPAX_MAX_VERTS];
} sepax_local_rec;

/* Poses and bounding boxes of eight consecutive shapes, a row per field. */
typedef struct sepax_pose_block {
    float px[SEPAX_BLOCK_LANES], py[SEPAX_BLOCK_LANES];
    float c[SEPAX_BLOCK_LANES], s[SEPAX_BLOCK_LANES];
} sepax_pose_block;

typedef struct sepax_aabb_block {
    float minx[SEPAX_BLOCK_LANES], miny[SEPAX_BLOCK_LANES];
    float maxx[SEPAX_BLOCK_LANES], maxy[SEPAX_BLOCK_LANES];
} sepax_aabb_block;

/* Every array holds `cap` shapes (cap / 8 blocks), 64-byte aligned; lanes
 * past `count` are zero. World data (rec, block, aabb) is what queries read;
 * sepax_shapes_update derives it from local data and poses. */
struct sepax_shapes {
    sepax_poly_rec *rec;      /* world, one record per shape */
    sepax_poly_block *block;  /* world, transposed */
    sepax_aabb_block *aabb;   /* world bounding boxes */
    sepax_local_block *local; /* local shapes */
    sepax_local_rec *lrec;    /* local shapes, per shape */
    sepax_pose_block *pose;   /* poses */
    uint8_t *nverts;          /* vertex counts */
    uint32_t count;
    uint32_t cap; /* a multiple of 16 */
};

/* World data of one shape from its local data and pose, one lane at a time:
 * the formula every update kernel follows operation for operation. */
void sepax_transform_shape(sepax_shapes *s, uint32_t id);

/* Shapes a store can hold: ids are uint32_t and record bytes must fit size_t. */
#define SEPAX_STORE_MAX_SHAPES 0x7fffffffu

#endif
