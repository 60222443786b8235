/* Embedded, deterministic scenes for the whole-frame benchmark (issue 5).
 *
 *   "bullet-hell": a 1920x1080 field; shape 0 is the player (a circle of radius 12), shapes
 *   1..50 the enemies (boxes and convex polygons 30-60 px across, slowly moving and turning),
 *   then N bullets (circles of radius 2-5 and small triangles, boxes and hexagons 4-10 px
 *   across) on patterns: spirals fired from the enemies, straight streams, sine waves, and the
 *   player's shots; every bullet wraps at the field's edges. Filters: the categories below;
 *   the player meets enemies and enemy shots, enemies meet the player and player shots, player
 *   shots meet enemies, enemy shots meet the player: bullets ignore bullets.
 *
 *   "particles": N small shapes (half circles of radius 1.5-2.5, half triangles, boxes,
 *   pentagons and hexagons of the same size) drifting and wobbling in a square whose side is
 *   chosen from N so that each shape has a few bounding-box neighbours (about 4 candidate pairs
 *   a shape); default filters (all against all); wrapping at the edges.
 *
 * Everything is built from one fixed integer generator (splitmix64) and IEEE double
 * arithmetic; rotations come from sepax_rot: no libm trigonometry, so a scene and each of its
 * frames is the same bits on every machine. A frame's poses are a pure function of (shape,
 * frame): any frame can be reproduced on its own. Shapes are added in their index order, so in
 * a fresh store a shape's id is its index. */
#ifndef SEPAX_BENCH_SCENES_H
#define SEPAX_BENCH_SCENES_H

#include <stdint.h>
#include <stdio.h>

#include "sepax.h"

#ifdef __cplusplus
extern "C" {
#endif

/* bullet-hell categories (filter bits) */
#define SCENE_PLAYER 1u
#define SCENE_ENEMY 2u
#define SCENE_PLAYER_SHOT 4u
#define SCENE_ENEMY_SHOT 8u

#define SCENE_ENEMIES 50u

typedef struct scene scene;

/* One shape in its own frame: a circle (count 1, vertex[0] its centre) or a polygon
 * (3..8 vertices, counter-clockwise, radius 0), as added to the store. */
typedef struct scene_shape {
    int kind;  /* SEPAX_KIND_CIRCLE or SEPAX_KIND_POLYGON */
    int count; /* 1 for a circle, else the polygon's vertices */
    float radius;
    sepax_vec2 vertex[SEPAX_MAX_VERTS];
} scene_shape;

/* "bullet-hell" (n bullets) or "particles" (n shapes); NULL for an unknown name, n == 0, a
 * scene past SEPAX_MAX_SHAPES, or out of memory. seed 0 is the default scene. */
scene *scene_create(const char *name, uint32_t n, uint64_t seed);
void scene_destroy(scene *s);

const char *scene_name(const scene *s);
uint32_t scene_count(const scene *s); /* shapes in all */
uint32_t scene_n(const scene *s);     /* the n it was made with */
uint64_t scene_seed(const scene *s);
/* the region the shapes move in: [0, w) x [0, h), positions wrap there */
void scene_field(const scene *s, float *w, float *h);

const scene_shape *scene_shape_at(const scene *s, uint32_t index);
sepax_filter scene_filter(const scene *s, uint32_t index);
/* 1 when the scene's filters are all SEPAX_FILTER_DEFAULT */
int scene_default_filters(const scene *s);

/* Add every shape to `store` (in index order) and set their filters (when not the default)
 * and the poses of frame 0 (sepax_shapes_update is left to the caller). Ids are
 * first id .. as the store hands them out; in an empty store, index i gets id i. */
sepax_status scene_add_to(const scene *s, sepax_shapes *store);

/* The poses of every shape at `frame` into out[0 .. scene_count - 1]. */
void scene_poses(const scene *s, uint32_t frame, sepax_pose *out);
/* The pose of one shape at `frame`. */
sepax_pose scene_pose(const scene *s, uint32_t index, uint32_t frame);

/* The filter rule of sepax (sepax_filter): 1 when shapes a and b may pair. */
static inline int scene_filters_pass(sepax_filter a, sepax_filter b) {
    return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

/* Export for the peers that are not C (bench/peers/js/frame.mjs), little-endian:
 *   header, 32 bytes: "SPXF", u32 version (1), u32 shapes, u32 frames, u32 first frame,
 *     f32 field w, f32 field h, u32 0
 *   per shape: u8 kind (0 circle, 2 polygon), u8 vertex count, u16 0, f32 radius,
 *     u32 category, u32 mask, then count x (f32 x, f32 y): the shape in its own frame
 *   per frame (frames of them, first, first+1, ...): per shape f32 px, py, c, s (its pose;
 *     world = (c*x - s*y + px, s*x + c*y + py)).
 * Returns 0 on success, -1 on a write error. */
int scene_export(const scene *s, uint32_t first_frame, uint32_t frames, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
