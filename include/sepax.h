/* sepax — SIMD batch 2D collision on the Separating Axis Theorem.
 *
 * Shapes live in a store (structure-of-arrays records); queries take lists of
 * shape-id pairs and write one result per pair into caller-owned buffers.
 * Every SIMD backend gives bit-identical answers to the scalar reference in
 * sepax_ref.h. An output buffer that shares memory with an input the call reads
 * while it writes (pairs, velocities, rays, ids, poses, a broadphase query's ray or
 * filter) or with another of its outputs (*count included) is refused,
 * SEPAX_ERR_ALIASED, nothing written: README, "Bad input: the contract", lists each
 * call's buffers and where the check sits. In place on purpose: sepax_hull's out may be
 * its points, sepax_shapes_reorder's new_ids its order.
 * Every caller buffer, one-object outputs included (*out_id, *moved, a getter's
 * *out, a broadphase query's *count), must be aligned for its type: else
 * SEPAX_ERR_MISALIGNED, checked right after the NULL checks of the call's required
 * pointers (sepax_find_contacts' result arrays come after its options, and a query's
 * scratch with its margin), and nothing written.
 * C99, usable from C++. */
#ifndef SEPAX_H
#define SEPAX_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(SEPAX_SHARED_BUILD)
#define SEPAX_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define SEPAX_API __attribute__((visibility("default")))
#else
#define SEPAX_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SEPAX_VERSION_MAJOR 0
#define SEPAX_VERSION_MINOR 1
#define SEPAX_VERSION_PATCH 0

/// Most vertices a polygon may have.
#define SEPAX_MAX_VERTS 8
/// Largest accepted |coordinate|: keeps every product and sum in the kernel
/// finite, so no overflow can turn an answer into NaN or Inf.
#define SEPAX_COORD_LIMIT 1.0e18f

/// Most bytes of the calling thread's stack any sepax call takes in a release build
/// (sepax's default; -O0 is not covered). For job systems and fibers with small stacks: give
/// such a thread at least this much plus the caller's own frames, or give the queries scratch
/// (sepax_query_options.scratch) and plan for SEPAX_SCRATCH_STACK_BYTES. Measured by
/// tests/stack_driver.c, which runs the calls on a stack of this size over a guard, on every
/// backend the CPU runs (README, "Stack"). The deepest calls are pair queries over lists longer
/// than 1024 pairs without scratch, each 4096-pair chunk sorted in buffers on the stack, and
/// sepax_collide_manifold without scratch, whose contact step keeps 46 KiB of lane buffers
/// there: up to 72 KiB (KiB: 1024 bytes). The built-in scheduler's threads have the system's
/// default stack.
#define SEPAX_STACK_BYTES (96u * 1024u)

/// Bytes of caller scratch a query takes for its work buffers (sepax_query_options.scratch),
/// which then stay off the calling thread's stack.
#define SEPAX_SCRATCH_BYTES (65u * 1024u)
/// Alignment of that scratch.
#define SEPAX_SCRATCH_ALIGN 64u
/// Most bytes of the calling thread's stack a query given scratch takes (sepax_overlap_opt,
/// sepax_collide_opt, sepax_overlap_one_opt, sepax_collide_manifold_opt, sepax_sweep_opt,
/// sepax_raycast_opt, sepax_raycast_range), the broadphase's queries and sepax_hull (which need
/// none: sepax_broadphase_query_aabb, _shape, _ray), and a task of sepax_find_contacts on a
/// caller's scheduler: for fibers with small stacks. Measured as SEPAX_STACK_BYTES is.
#define SEPAX_SCRATCH_STACK_BYTES (24u * 1024u)

/// Every call that can fail returns one of these. Negative values are errors.
typedef enum sepax_status {
    SEPAX_OK = 0,                  ///< success
    SEPAX_ERR_NULL = -1,           ///< a required pointer was NULL
    SEPAX_ERR_NONFINITE = -2,      ///< a coordinate was NaN or +-Inf
    SEPAX_ERR_RANGE = -3,          ///< a coordinate exceeded SEPAX_COORD_LIMIT
    SEPAX_ERR_TOO_FEW_POINTS = -4, ///< too few distinct points (3 for a polygon, 2 for a capsule)
    SEPAX_ERR_TOO_MANY_VERTS = -5, ///< more than SEPAX_MAX_VERTS points
    SEPAX_ERR_COLLINEAR = -6,      ///< all points on one line (zero area)
    SEPAX_ERR_NONCONVEX = -7,      ///< a reflex vertex or a self-intersection
    SEPAX_ERR_BAD_ID = -8,         ///< an id or index past the store's shapes
    SEPAX_ERR_COUNT = -9,          ///< a count negative, over a limit, or too large for a size
    SEPAX_ERR_NOMEM = -10,         ///< out of memory
    SEPAX_ERR_BAD_BACKEND = -11,   ///< unknown backend name or value
    SEPAX_ERR_UNSUPPORTED = -12,   ///< backend not built in or not on this CPU
    SEPAX_ERR_BAD_POSE = -13,      ///< a pose's rotation is not unit length
    SEPAX_ERR_BAD_SIZE = -14,   ///< a radius or half extent negative, or zero where it must not be
    SEPAX_ERR_STALE_ID = -15,   ///< the id of a shape that was removed
    SEPAX_ERR_MISALIGNED = -16, ///< a caller buffer not aligned for its element type
    SEPAX_ERR_CAPACITY = -17,   ///< an output buffer too small; the call reports the size it needs
    SEPAX_ERR_BAD_OPTION = -18, ///< an option outside its documented set
    SEPAX_ERR_DUPLICATE = -19,  ///< an index given twice where each must appear once
    /// world data a query needs is out of date: a frame's SEPAX_UPDATE_LAZY wrote only the
    /// records of its pairs (sepax_shapes_update brings every shape up to date)
    SEPAX_ERR_STALE_WORLD = -20,
    /// a broadphase query or sepax_broadphase_order with no grid to read: none was built, or
    /// the last sepax_broadphase_build or sepax_find_contacts failed before its grid was whole
    SEPAX_ERR_NO_GRID = -21,
    /// an output buffer shares memory with an input the call reads while it writes, or with
    /// another of its outputs (README, "Bad input: the contract", lists each call's buffers)
    SEPAX_ERR_ALIASED = -22
} sepax_status;

/// Shape ids: the low SEPAX_ID_INDEX_BITS bits are the shape's index (its position in the
/// store, 0 .. count-1), the high bits a generation that changes whenever the shape at that
/// index is removed or replaced, so an id kept past sepax_shapes_remove is refused
/// (SEPAX_ERR_STALE_ID) instead of naming another shape, until that index has been reused 256
/// times (each removal reuses the last index too: README, "Removing shapes and ids"). A store
/// that never removes or reorders has id == index.
#define SEPAX_ID_INDEX_BITS 24
/// Mask of the index bits of an id.
#define SEPAX_ID_INDEX_MASK 0x00ffffffu
/// Most shapes a store holds (index 0xffffff is never used, so no id equals SEPAX_NO_ID).
#define SEPAX_MAX_SHAPES ((1u << SEPAX_ID_INDEX_BITS) - 1u)
/// "No shape", where an id is reported.
#define SEPAX_NO_ID 0xffffffffu

/// A 2D vector (a point or a direction).
typedef struct sepax_vec2 {
    float x; ///< x coordinate
    float y; ///< y coordinate
} sepax_vec2;

/// A rotation as its cosine and sine.
typedef struct sepax_rotation {
    float c; ///< cosine of the angle
    float s; ///< sine of the angle
} sepax_rotation;

/// Largest |angle| sepax_rot takes (radians): beyond it float angles are too coarse to mean
/// much (their spacing passes 0.06 rad at 1e6) and reduction would lose precision.
#define SEPAX_ROT_LIMIT 1.0e6f

/// The rotation by `angle` radians, within about 1 float ulp of the exact cosine and sine and
/// the same bits on every platform and compiler: it uses no libm trigonometry. A non-finite
/// angle or |angle| > SEPAX_ROT_LIMIT gives {NaN, NaN}.
SEPAX_API sepax_rotation sepax_rot(float angle);

/// out[i] = sepax_rot(angles[i]) for i < n, bit for bit, several angles at a time in SIMD
/// lanes: a frame's rotations in one call (about 3.5x fewer ns an angle than calling sepax_rot
/// in a loop, README "Poses"). Invalid angles give {NaN, NaN} as sepax_rot does, which
/// sepax_shapes_set_poses then refuses. n == 0: SEPAX_OK, nothing read or written; NULL
/// angles or out: SEPAX_ERR_NULL; either not aligned for its type: SEPAX_ERR_MISALIGNED; n
/// whose byte size overflows size_t: SEPAX_ERR_COUNT; out sharing memory with angles:
/// SEPAX_ERR_ALIASED; then, as every query, the backend's error when SEPAX_BACKEND names none
/// this CPU runs (sepax_get_backend); on error nothing is written.
SEPAX_API sepax_status sepax_rot_many(const float *angles, size_t n, sepax_rotation *out);

/// Where a shape is: world = rotation * local + position.
typedef struct sepax_pose {
    sepax_vec2 position;     ///< translation
    sepax_rotation rotation; ///< unit rotation (see sepax_rot)
} sepax_pose;

/// An axis-aligned bounding box.
typedef struct sepax_aabb {
    sepax_vec2 lower; ///< minimum corner
    sepax_vec2 upper; ///< maximum corner
} sepax_aabb;

/// What a shape is. Every kind is a convex core (a point, a segment or a polygon) grown by a
/// radius; boxes are polygons, rounded polygons are polygons with a radius.
typedef enum sepax_kind {
    SEPAX_KIND_CIRCLE = 0,  ///< a point core (1 vertex) and a radius > 0
    SEPAX_KIND_CAPSULE = 1, ///< a segment core (2 vertices) and a radius > 0
    SEPAX_KIND_POLYGON = 2  ///< a convex polygon core (3..8 vertices) and a radius >= 0
} sepax_kind;

/// A shape as it was added, in its own frame (copied out of the store).
typedef struct sepax_local_shape {
    int kind;                           ///< a sepax_kind
    int count;                          ///< core vertices: 1, 2, or 3..SEPAX_MAX_VERTS (CCW)
    float radius;                       ///< rounding radius (0 for a sharp polygon)
    sepax_vec2 vertex[SEPAX_MAX_VERTS]; ///< core vertices; past count, the last one repeated
    sepax_vec2 normal[SEPAX_MAX_VERTS]; ///< outward unit normal of edge k ({0,0} for a circle)
} sepax_local_shape;

/// A candidate pair: two shape ids of one store.
typedef struct sepax_pair {
    uint32_t a; ///< id of shape A
    uint32_t b; ///< id of shape B
} sepax_pair;

/// Result of sepax_collide for one pair.
typedef struct sepax_hit {
    uint32_t hit;      ///< 1 if the separation is <= the query margin (margin 0: overlap or touch)
    sepax_vec2 normal; ///< unit axis of least penetration, from A to B; {0,0} when hit == 0
    float depth;       ///< minus the separation: > 0 overlapping, < 0 apart (within a margin);
                       ///< 0 when hit == 0
} sepax_hit;

/// Options of a query. A zeroed struct, or NULL, means margin 0 and no scratch. A pointer not
/// aligned for the struct is SEPAX_ERR_MISALIGNED, checked before the margin.
typedef struct sepax_query_options {
    /// Pairs whose separation is <= margin are hits: > 0 keeps pairs up to that far apart (the
    /// speculative contacts of engines), < 0 asks for penetration deeper than -margin, 0 counts
    /// touching. Finite, |margin| <= SEPAX_COORD_LIMIT. Sweeps and raycasts take no margin:
    /// for them it must be 0.
    float margin;
    /// Work memory for the call, so that its buffers stay off the calling thread's stack (at
    /// most SEPAX_SCRATCH_STACK_BYTES of it taken): NULL (the default) puts them on the stack
    /// (up to SEPAX_STACK_BYTES). Given, it must be aligned to SEPAX_SCRATCH_ALIGN
    /// (SEPAX_ERR_MISALIGNED) and hold scratch_bytes >= SEPAX_SCRATCH_BYTES, and its first
    /// SEPAX_SCRATCH_BYTES, all a call uses, must not overlap the call's inputs or outputs
    /// (SEPAX_ERR_BAD_OPTION). Its contents before the call do not matter and after it mean
    /// nothing; one scratch serves one call at a time.
    void *scratch;
    size_t scratch_bytes; ///< bytes at scratch (ignored when scratch is NULL)
} sepax_query_options;

/// Read-only view of one stored shape in world coordinates, pointing into the store: valid
/// until the store is next modified. Arrays hold SEPAX_MAX_VERTS entries; entries at and past
/// `count` (`planes`) repeat the last real vertex (plane).
typedef struct sepax_shape_view {
    int kind;        ///< a sepax_kind
    int count;       ///< core vertices: 1 circle, 2 capsule, 3..SEPAX_MAX_VERTS polygon (CCW)
    int planes;      ///< edge planes: 0 circle, 2 capsule (both sides), count for a polygon
    float radius;    ///< rounding radius
    const float *x;  ///< vertex x coordinates
    const float *y;  ///< vertex y coordinates
    const float *nx; ///< plane i outward unit normal, x (edge i runs from vertex i to i+1)
    const float *ny; ///< plane i outward unit normal, y
    const float *c;  ///< plane i offset nx[i]*x[i] + ny[i]*y[i]; +Inf for a circle (no plane)
} sepax_shape_view;

/// Opaque store of shapes.
typedef struct sepax_shapes sepax_shapes;

/// The SIMD backends. Every one computes the same bits.
typedef enum sepax_backend {
    SEPAX_BACKEND_AUTO = -1,  ///< the best one this CPU supports
    SEPAX_BACKEND_SCALAR = 0, ///< portable C, one lane
    SEPAX_BACKEND_SSE2 = 1,   ///< x86 SSE2, 4 lanes
    SEPAX_BACKEND_SSE41 = 2,  ///< x86 SSE4.1, 4 lanes
    SEPAX_BACKEND_AVX2 = 3,   ///< x86 AVX2, 8 lanes
    SEPAX_BACKEND_AVX512 = 4, ///< x86 AVX-512F+VL, 16 lanes (two pairs per register; on a Zen 4
                              ///< or Zen 5 most pair queries run 8 lanes with AVX-512's 32
                              ///< registers; SEPAX_BACKEND=avx512-512|avx512-256|avx512-zen5
                              ///< picks one table whatever the CPU: README, "Backends")
    SEPAX_BACKEND_NEON = 5,   ///< aarch64 NEON, 4 lanes
    SEPAX_BACKEND_COUNT = 6
} sepax_backend;

/// A short English name for a status code ("SEPAX_OK", ...) and what it means.
SEPAX_API const char *sepax_status_str(sepax_status status);

/// Create a store with room for `capacity` shapes (it grows on demand).
/// Returns NULL when out of memory or when capacity is too large.
SEPAX_API sepax_shapes *sepax_shapes_create(size_t capacity);

/// Memory for a store, for engines that manage their own. alloc returns `size` bytes aligned
/// to `align` (a power of two, at most 64) or NULL; free releases what alloc returned.
typedef struct sepax_allocator {
    void *(*alloc)(size_t size, size_t align, void *ctx); ///< allocate, or NULL when out
    void (*free)(void *ptr, void *ctx);                   ///< release (never called with NULL)
    void *ctx;                                            ///< passed to both
} sepax_allocator;

/// sepax_shapes_create with the caller's allocator (copied; NULL: the C library's). NULL when
/// the allocator lacks alloc or free, or is not aligned for its type.
SEPAX_API sepax_shapes *sepax_shapes_create_with(size_t capacity, const sepax_allocator *allocator);

/// Free a store and everything in it. NULL is allowed.
SEPAX_API void sepax_shapes_destroy(sepax_shapes *store);

/// Number of shapes in the store; their indices are 0 .. count-1 (see SEPAX_ID_INDEX_BITS).
SEPAX_API uint32_t sepax_shapes_count(const sepax_shapes *store);

/// The id of the shape at `index`, or SEPAX_NO_ID when index >= count.
SEPAX_API uint32_t sepax_shapes_id(const sepax_shapes *store, uint32_t index);

/// Add a convex polygon, in its own (local) coordinates, with the identity pose: until a pose
/// is set and sepax_shapes_update runs, local coordinates are world coordinates. Clockwise input is
/// stored counter-clockwise; points within 2^-20 of the polygon's size (in x and in y) of the
/// previous one are merged; vertices on a straight edge are dropped. On success writes the new id
/// to *out_id. On any error nothing is added and *out_id is left untouched. Errors begin with
/// SEPAX_ERR_NULL, then SEPAX_ERR_MISALIGNED (points, out_id), before the shape's own checks.
SEPAX_API sepax_status sepax_shapes_add_polygon(sepax_shapes *store, const sepax_vec2 *points,
                                                int count, uint32_t *out_id);

/// Add a polygon rounded by `radius` (>= 0, finite, <= SEPAX_COORD_LIMIT): every point within
/// radius of the polygon. Otherwise as sepax_shapes_add_polygon.
SEPAX_API sepax_status sepax_shapes_add_rounded(sepax_shapes *store, const sepax_vec2 *points,
                                                int count, float radius, uint32_t *out_id);

/// Add a circle; radius > 0 (0 or less: SEPAX_ERR_BAD_SIZE). On error nothing is added.
SEPAX_API sepax_status sepax_shapes_add_circle(sepax_shapes *store, sepax_vec2 center, float radius,
                                               uint32_t *out_id);

/// Add a capsule: every point within radius (> 0) of the segment p0-p1. Ends closer than 2^-20
/// of the capsule's size (the larger side of its bounding box, radius included; the same
/// wherever it sits) are SEPAX_ERR_TOO_FEW_POINTS (add a circle instead).
SEPAX_API sepax_status sepax_shapes_add_capsule(sepax_shapes *store, sepax_vec2 p0, sepax_vec2 p1,
                                                float radius, uint32_t *out_id);

/// Add a box centred on its local origin, 2*half_width by 2*half_height, axis-aligned in
/// its own frame (its pose orients it). Half extents > 0 (else SEPAX_ERR_BAD_SIZE); a box with
/// one half extent at most 2^-20 of the other is too thin to have edges (SEPAX_ERR_TOO_FEW_POINTS).
SEPAX_API sepax_status sepax_shapes_add_box(sepax_shapes *store, float half_width,
                                            float half_height, uint32_t *out_id);

/// Where sepax_shapes_remove moved a shape: the shape that had id `from` now has id `to`.
typedef struct sepax_move {
    uint32_t from; ///< its id before the removal, or SEPAX_NO_ID when nothing moved
    uint32_t to;   ///< its id now (the removed shape's index, a new generation); SEPAX_NO_ID
                   ///< when nothing moved
} sepax_move;

/// Remove shape `id` in O(1): the last shape moves into its index (store stays dense for the
/// SIMD kernels) and *moved says so (moved may be NULL; else aligned for sepax_move, checked
/// before the id: SEPAX_ERR_MISALIGNED). The removed id and the moved shape's
/// old id are refused from then on (SEPAX_ERR_STALE_ID), until the 8-bit generation of that
/// index wraps after 256 more removals there. Pairs, poses and ranges the caller keeps must
/// be updated with *moved. On error nothing changes.
SEPAX_API sepax_status sepax_shapes_remove(sepax_shapes *store, uint32_t id, sepax_move *moved);

/// Remove the shapes ids[0 .. n-1] as one set (the bullets that died this frame), in any order:
/// one by one, a removal may move a shape the list names further on, whose id would then be
/// refused, and a shape may move twice. Here the store stays dense with each staying shape moved
/// at most once: with k the count after the call, each removed shape's index below k takes one of
/// the staying shapes at or past k. Which one goes where follows from the store and the list
/// alone (the same on every platform); moved[0 .. *moves-1] says (room for n; moved and moves
/// may be NULL, else aligned for their types). The removals and moves are those of
/// sepax_shapes_remove called in some order, with its rules for old ids and generations.
/// Every id is checked before anything changes; errors, with the store unchanged and moved and
/// *moves untouched: SEPAX_ERR_NULL (store; ids with n > 0), SEPAX_ERR_MISALIGNED (ids, moved,
/// moves), then with n > 0 SEPAX_ERR_ALIASED (moved's n entries, *moves and ids sharing
/// memory), then, id by id in the list's order, SEPAX_ERR_BAD_ID and SEPAX_ERR_STALE_ID (a bad
/// id) or SEPAX_ERR_DUPLICATE (an id given before it in the list): the first such entry's.
/// n == 0: SEPAX_OK and *moves = 0.
SEPAX_API sepax_status sepax_shapes_remove_many(sepax_shapes *store, const uint32_t *ids,
                                                uint32_t n, sepax_move *moved, uint32_t *moves);

/// Move every shape to a new index: the shape at index order[j] goes to index j.
/// `order` is a permutation of 0 .. count-1 with count == sepax_shapes_count(store); a game
/// that keeps the store in spatial order (sepax_broadphase_order) makes a dense frame's reads
/// sequential. new_ids (count entries, or NULL; it may be `order` itself) receives, at each
/// old index, that shape's new id. A shape that changes index gets a new generation there, so
/// its old id is refused from then on (SEPAX_ERR_STALE_ID); a shape that stays keeps its id.
/// Each reorder counts as a reuse of every index whose shape changed: the 8-bit generation of
/// an index wraps after 256 of them (a game reordering every 30 frames at 60 Hz: about two
/// minutes), after which an id kept that long could name another shape. Local shapes, poses,
/// filters, the caller's data and world data move with the shapes (no update needed); a
/// broadphase's last grid names the old ids until it is built again. Errors, with nothing changed
/// or written: SEPAX_ERR_NULL (store; order with count > 0), SEPAX_ERR_MISALIGNED, SEPAX_ERR_COUNT
/// (count is not the store's), SEPAX_ERR_BAD_ID (an entry >= count), SEPAX_ERR_DUPLICATE (an entry
/// twice), SEPAX_ERR_NOMEM (its scratch, 160 bytes a shape from the store's allocator, held for the
/// call).
SEPAX_API sepax_status sepax_shapes_reorder(sepax_shapes *store, const uint32_t *order,
                                            uint32_t count, uint32_t *new_ids);

/// Most points sepax_hull takes.
#define SEPAX_HULL_MAX_POINTS 512

/// Convex hull of `count` points (3..SEPAX_HULL_MAX_POINTS) into out[0..*out_count),
/// counter-clockwise from the lowest-x (then lowest-y) vertex; `out` holds SEPAX_MAX_VERTS.
/// Points within 2^-20 of the set's size (in x and in y) are one point, points within 2^-20 of
/// it of a hull edge are dropped (judged against every point dropped beside them, so the
/// drops never add up to more), and the result is always accepted by
/// sepax_shapes_add_polygon, which may drop a vertex its own test, seeing only the vertices,
/// finds within that distance of its neighbours' line. A hull that needs
/// more than SEPAX_MAX_VERTS vertices is SEPAX_ERR_TOO_MANY_VERTS, never truncated. On any
/// error `out` and *out_count are untouched. `out` may be `points` (a hull in place: every point
/// is read before out is written); *out_count sharing memory with out's SEPAX_MAX_VERTS is
/// SEPAX_ERR_ALIASED, checked after the alignment.
SEPAX_API sepax_status sepax_hull(const sepax_vec2 *points, int count, sepax_vec2 *out,
                                  int *out_count);

/// Set the poses of the shapes at indices first .. first+count-1 (a game calls this once a frame).
/// Errors, in this order: SEPAX_ERR_NULL (store), SEPAX_ERR_BAD_ID (range past the shapes), then,
/// with count > 0 (count 0 may pass NULL poses), SEPAX_ERR_NULL and SEPAX_ERR_MISALIGNED (poses).
/// Every pose is checked before any is stored: a NaN or Inf (SEPAX_ERR_NONFINITE), a position
/// beyond SEPAX_COORD_LIMIT (SEPAX_ERR_RANGE), or a rotation whose squared length is off 1
/// by more than 2^-16 (SEPAX_ERR_BAD_POSE) leaves every pose unchanged. World data, which
/// queries read, changes only at the next sepax_shapes_update. A rotation is used as given,
/// not renormalised: one of length 1 + e (|e| <= 2^-17 as accepted) scales the shape and its
/// normals by 1 + e, so every "unit" normal a query returns is unit within the length of the
/// rotation that turned it (sepax_rot's cosine and sine are each within 0.5 ulp of exact).
SEPAX_API sepax_status sepax_shapes_set_poses(sepax_shapes *store, uint32_t first, size_t count,
                                              const sepax_pose *poses);

/// The pose of shape `id`. Errors: SEPAX_ERR_NULL, SEPAX_ERR_MISALIGNED (out), then the id's
/// BAD_ID / STALE_ID; nothing written. The same for sepax_shapes_aabb, _local, _view and
/// sepax_shapes_get_filter.
SEPAX_API sepax_status sepax_shapes_get_pose(const sepax_shapes *store, uint32_t id,
                                             sepax_pose *out);

/// Recompute world vertices, planes and bounding boxes of every shape from local shapes and
/// poses, in one SIMD pass. Queries must not run on the store meanwhile.
SEPAX_API sepax_status sepax_shapes_update(sepax_shapes *store);

/// Shapes a block of the store holds: indices b*8 .. b*8+7 are block b.
#define SEPAX_BLOCK_SHAPES 8

/// sepax_shapes_update for the shapes at indices first .. first+count-1 only, for a store
/// whose other shapes did not move (a level's walls kept first, at the lowest indices, where
/// adds and removals' moves do not reach them; sepax_shapes_reorder):
/// after it, with the others' world data current, a frame with SEPAX_UPDATE_NONE finds what
/// one with a whole update finds. It writes the blocks of SEPAX_BLOCK_SHAPES shapes that hold
/// the range whole (a neighbour in one of them is computed again from its own pose: the same
/// bits when that pose is the one its world data came from) and nothing else, so calls on
/// ranges that share no block may run on different threads at once; queries must not run on
/// the store meanwhile. The rows or records a frame left behind (SEPAX_UPDATE_FRAME,
/// SEPAX_UPDATE_LAZY) are current again only after a range of every shape. Errors:
/// SEPAX_ERR_NULL, SEPAX_ERR_BAD_ID (range past the shapes), then SEPAX_ERR_BAD_BACKEND or
/// SEPAX_ERR_UNSUPPORTED (SEPAX_BACKEND names no backend, or one this CPU lacks: as every
/// query, count 0 included); count 0 otherwise SEPAX_OK with no world data written; on error
/// nothing is written.
SEPAX_API sepax_status sepax_shapes_update_range(sepax_shapes *store, uint32_t first, size_t count);

/// The world bounding box of shape `id`, as of the last update: the world vertices' least and
/// greatest coordinates less and plus the radius, in float rounded to nearest, so it may miss
/// the shape by a rounding (up to about 2e-7 of the coordinates' size; the broadphase pads it).
SEPAX_API sepax_status sepax_shapes_aabb(const sepax_shapes *store, uint32_t id, sepax_aabb *out);

/// Copy out shape `id` as it was added, in its local frame.
SEPAX_API sepax_status sepax_shapes_local(const sepax_shapes *store, uint32_t id,
                                          sepax_local_shape *out);

/// Fill *out with a view of shape `id` in world coordinates (SEPAX_ERR_STALE_WORLD after a
/// frame's SEPAX_UPDATE_LAZY, until sepax_shapes_update).
SEPAX_API sepax_status sepax_shapes_view(const sepax_shapes *store, uint32_t id,
                                         sepax_shape_view *out);

/// For each of the n pairs, hit[i] = 1 if the two shapes overlap or touch, else 0.
/// Exact for every kind (SAT over the edge normals and, when a shape is curved, the axis
/// through the closest pair of core vertices). On error (NULL or misaligned buffer with
/// n > 0, n too large, hit sharing memory with pairs, an id out of range or removed: in that
/// order) nothing is written.
SEPAX_API sepax_status sepax_overlap(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                     uint8_t *hit);

/// For each of the n pairs, the overlap flag, the minimum translation normal
/// (from A to B) and depth. Ties between axes go to the lowest edge index,
/// A's edges before B's, then the closest-vertices axis. On error nothing is written.
SEPAX_API sepax_status sepax_collide(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                     sepax_hit *out);

/// hit[k] = overlap of shape `probe` (an id) with the shape at index `first + k`, for
/// k < count: one shape against a contiguous range, read straight from the store.
/// On error nothing is written.
SEPAX_API sepax_status sepax_overlap_one(const sepax_shapes *store, uint32_t probe, uint32_t first,
                                         size_t count, uint8_t *hit);

/// sepax_overlap with options (NULL: the defaults). A bad margin is SEPAX_ERR_NONFINITE or
/// SEPAX_ERR_RANGE, and nothing is written.
SEPAX_API sepax_status sepax_overlap_opt(const sepax_shapes *store, const sepax_pair *pairs,
                                         size_t n, const sepax_query_options *options,
                                         uint8_t *hit);

/// sepax_collide with options (NULL: the defaults).
SEPAX_API sepax_status sepax_collide_opt(const sepax_shapes *store, const sepax_pair *pairs,
                                         size_t n, const sepax_query_options *options,
                                         sepax_hit *out);

/// sepax_overlap_one with options (NULL: the defaults).
SEPAX_API sepax_status sepax_overlap_one_opt(const sepax_shapes *store, uint32_t probe,
                                             uint32_t first, size_t count,
                                             const sepax_query_options *options, uint8_t *hit);

/// Most contact points in a manifold.
#define SEPAX_MANIFOLD_POINTS 2

/// Feature types in a contact id.
#define SEPAX_FEATURE_VERTEX 0u ///< a vertex of the shape's core
#define SEPAX_FEATURE_FACE 1u   ///< an edge (face) of the shape's core

/// A contact point's feature id: which feature of A (index_a: a vertex or an edge index of A's
/// core, type_a: SEPAX_FEATURE_*) and which of B made it. A face contact's point is (reference
/// face, incident vertex), a clipped point named by the vertex the clip replaced, so it stays
/// the same while the reference face and the incident edge do, and a solver can match this
/// frame's point with last frame's (warm start).
#define SEPAX_FEATURE_ID(index_a, index_b, type_a, type_b)                                         \
    (SEPAX_U32_(index_a) | SEPAX_U32_(index_b) << 8 | SEPAX_U32_(type_a) << 16 |                   \
     SEPAX_U32_(type_b) << 24)
/// A feature id's parts: SEPAX_FEATURE_INDEX_A(SEPAX_FEATURE_ID(ia, ib, ta, tb)) == ia, and so on.
#define SEPAX_FEATURE_INDEX_A(id) ((id)&0xffu)
#define SEPAX_FEATURE_INDEX_B(id) ((id) >> 8 & 0xffu)
#define SEPAX_FEATURE_TYPE_A(id) ((id) >> 16 & 0xffu)
#define SEPAX_FEATURE_TYPE_B(id) ((id) >> 24 & 0xffu)
/// The id with A's and B's parts swapped: what the same contact is called in the manifold of
/// the pair (B, A), when both orders pick the same reference face (all but exact ties of
/// depth). A frame lists a pair with the lower index first, and removals move shapes to other
/// indices, so a solver keying its warm starts by shape can meet a pair the other way round.
#define SEPAX_FEATURE_SWAP(id) (((id)&0x00ff00ffu) << 8 | ((id) >> 8 & 0x00ff00ffu))
/* the casts of SEPAX_FEATURE_ID. C++11 on: a constexpr template (its cast depends on the
 * argument's type, so C++ built with -Wold-style-cast, -Wuseless-cast or -Wconversion takes
 * it for any integer, and it is still a constant expression); before C++11, C++'s own cast */
#if defined(__cplusplus) && __cplusplus >= 201103L
extern "C++" {
template <typename T> constexpr uint32_t sepax_u32_(T x) noexcept {
    return static_cast<uint32_t>(x);
}
}
#define SEPAX_U32_(x) sepax_u32_(x)
#elif defined(__cplusplus)
#define SEPAX_U32_(x) static_cast<uint32_t>(x)
#else
#define SEPAX_U32_(x) ((uint32_t)(x))
#endif

/// One contact point of a manifold.
typedef struct sepax_contact {
    /// world point midway between the two surfaces along the normal (a rounded incident edge
    /// is taken as its core edge moved out by the radius along the normal, as Box2D's skin)
    sepax_vec2 point;
    float separation; ///< distance between the surfaces along the normal: < 0 penetrating
    uint32_t id;      ///< feature id (SEPAX_FEATURE_ID)
} sepax_contact;

/// Result of sepax_collide_manifold for one pair.
typedef struct sepax_manifold {
    sepax_vec2 normal; ///< unit, from A to B: sepax_collide's normal; {0,0} when count == 0
    float depth;       ///< sepax_collide's depth (0 when count == 0)
    uint32_t count;    ///< contact points, 0..SEPAX_MANIFOLD_POINTS; 0 exactly when collide misses
    sepax_contact points[SEPAX_MANIFOLD_POINTS]; ///< points[0 .. count-1]; the rest zero
} sepax_manifold;

/// Contact manifolds: for each pair that sepax_collide calls a hit, up to 2 contact points a
/// solver can use, with the same normal and depth. The axis SAT picks gives the reference face
/// (an edge of A's or B's core; ties as in sepax_collide); the other shape's edge most opposed to
/// it (its incident edge) is clipped to the reference face's side planes, and the clipped points
/// within the margin are kept. When the axis is the closest-vertices one (curved shapes), the
/// single point lies between the two closest core vertices. When the clip keeps no point within
/// the margin, the one point is the incident edge's deepest vertex (of two equally deep, the
/// one nearer the reference face's span). A point sits midway between the
/// two surfaces; its separation is the distance between them along the normal. A pair that
/// misses is written as all zeros. On error nothing is written. A call of 262,144 pairs or more
/// whose output is 16-byte aligned writes it with non-temporal stores (around the caches, as
/// an output that large would leave them anyway): read it back from memory, not from cache.
SEPAX_API sepax_status sepax_collide_manifold(const sepax_shapes *store, const sepax_pair *pairs,
                                              size_t n, sepax_manifold *out);

/// sepax_collide_manifold with options (NULL: the defaults): a positive margin keeps
/// speculative points up to that far apart.
SEPAX_API sepax_status sepax_collide_manifold_opt(const sepax_shapes *store,
                                                  const sepax_pair *pairs, size_t n,
                                                  const sepax_query_options *options,
                                                  sepax_manifold *out);

/// Largest |velocity| component sepax_sweep takes (SEPAX_ERR_RANGE beyond), and the largest
/// ray direction component and max_fraction: with SEPAX_COORD_LIMIT, it keeps every point a
/// sweep or ray reaches within about 2e18 of the origin, so the squared distances of its
/// arithmetic stay finite. Rounded corners' contact times are solved in units of powers of
/// two of each pair's own (exact), so sweeps and raycasts are accurate over the whole range,
/// down to shapes about 1e-18 across, where the closest-vertex search's squared distances
/// leave the normal floats (README, "What the answers mean").
#define SEPAX_SWEEP_LIMIT 1.0e9f

/// Result of sepax_sweep for one pair.
typedef struct sepax_sweep_hit {
    uint32_t hit;      ///< 1 if the shapes touch at some time t in [0, 1]
    float t;           ///< the first such t (0: touching or overlapping at the start); 0 on a miss
    sepax_vec2 normal; ///< unit normal from A to B at that time; {0,0} on a miss
} sepax_sweep_hit;

/// Swept SAT (continuous collision): shapes A and B of pair i move by velocity_a[i] and
/// velocity_b[i] over the step (a displacement: position at time t is pose + t * velocity, no
/// rotation). For each pair, the first t in [0, 1] at which they touch, analytically on the SAT
/// axes: per edge plane of either shape the interval of t in which its separation (linear in
/// t) is <= the radii, intersected over all planes; for curved shapes, when that entry falls
/// in a rounded corner, the exact time the closest pair of core vertices reaches the radii (a
/// quadratic). No iteration, no sub-steps: a bullet 0.05 wide crossing a wall 0.01 thick at
/// 1000 units per step is found. Pairs touching at the start report t = 0 and the normal of
/// least penetration. velocity_a or velocity_b may be NULL: not moving. out sharing memory
/// with pairs or a velocity array is SEPAX_ERR_ALIASED (checked before the ids; the two velocity
/// arrays may be one). A NaN or infinite velocity is SEPAX_ERR_NONFINITE, one beyond
/// SEPAX_SWEEP_LIMIT SEPAX_ERR_RANGE (checked after the ids); on any error nothing is written.
SEPAX_API sepax_status sepax_sweep(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                   const sepax_vec2 *velocity_a, const sepax_vec2 *velocity_b,
                                   sepax_sweep_hit *out);

/// sepax_sweep with options (NULL: the defaults), for their scratch: a finite margin other than
/// 0 is SEPAX_ERR_BAD_OPTION (a sweep takes none; a NaN or infinite one SEPAX_ERR_NONFINITE,
/// one beyond SEPAX_COORD_LIMIT SEPAX_ERR_RANGE, as for every query), and nothing is written.
SEPAX_API sepax_status sepax_sweep_opt(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                       const sepax_vec2 *velocity_a, const sepax_vec2 *velocity_b,
                                       const sepax_query_options *options, sepax_sweep_hit *out);

/// A ray, or a segment: the points origin + t * direction for t in [0, max_fraction]
/// (max_fraction 1: the segment from origin to origin + direction, as in Box2D).
typedef struct sepax_ray {
    sepax_vec2 origin;    ///< |components| <= SEPAX_COORD_LIMIT
    sepax_vec2 direction; ///< any length, zero included; |components| <= SEPAX_SWEEP_LIMIT
    float max_fraction;   ///< in [0, SEPAX_SWEEP_LIMIT]
} sepax_ray;

/// Result of a raycast against one shape.
typedef struct sepax_ray_hit {
    uint32_t hit;      ///< 1 if the ray touches the shape at some t in [0, max_fraction]
    float fraction;    ///< the first such t (0: the origin is inside or on the shape); 0 on a miss
    sepax_vec2 point;  ///< origin + fraction * direction; {0,0} on a miss
    sepax_vec2 normal; ///< unit outward normal of the shape there; {0,0} on a miss
} sepax_ray_hit;

/// Batched raycasts: ray rays[i] against the shape with id shapes[i], for i < n. A ray is a
/// point sweeping against the shape, so this is sepax_sweep's arithmetic (the shape's edge
/// planes as slabs, its rounded corners as exact quadratics), bit-identical on every backend.
/// A ray starting inside or on a shape hits at fraction 0 with the normal of least
/// penetration (Box2D 2.4 reports no hit there); a ray grazing an edge touches it. Errors, in
/// the order checked: SEPAX_ERR_NULL (store; rays, shapes or out with n > 0),
/// SEPAX_ERR_MISALIGNED, SEPAX_ERR_COUNT, SEPAX_ERR_ALIASED (out sharing memory with rays or
/// shapes), SEPAX_ERR_BAD_ID / SEPAX_ERR_STALE_ID, then the first bad ray's SEPAX_ERR_NONFINITE (a
/// NaN or Inf in it) or SEPAX_ERR_RANGE (beyond its limits); on any error nothing is written.
SEPAX_API sepax_status sepax_raycast(const sepax_shapes *store, const sepax_ray *rays,
                                     const uint32_t *shapes, size_t n, sepax_ray_hit *out);

/// sepax_raycast with options (NULL: the defaults), for their scratch: a finite margin other
/// than 0 is SEPAX_ERR_BAD_OPTION (a ray takes none; non-finite or beyond the limit as for
/// sepax_sweep_opt), and nothing is written.
SEPAX_API sepax_status sepax_raycast_opt(const sepax_shapes *store, const sepax_ray *rays,
                                         const uint32_t *shapes, size_t n,
                                         const sepax_query_options *options, sepax_ray_hit *out);

/// One ray against the shapes at indices first .. first + count - 1 (a laser through a
/// field): out[k] for the shape at index first + k, read straight from the store's
/// transposed blocks, a lane per shape, with no gather (after a frame's SEPAX_UPDATE_FRAME,
/// from the records: see sepax_frame_update). The same answers as sepax_raycast.
/// Errors: SEPAX_ERR_NULL (store, ray; out with count > 0), the ray's NONFINITE / RANGE,
/// SEPAX_ERR_BAD_ID (the range past the shapes), SEPAX_ERR_MISALIGNED, SEPAX_ERR_ALIASED (out
/// sharing memory with *ray); nothing written.
SEPAX_API sepax_status sepax_raycast_range(const sepax_shapes *store, const sepax_ray *ray,
                                           uint32_t first, size_t count, sepax_ray_hit *out);

/// Collision filtering: shapes a and b are paired only when
/// (a.category & b.mask) != 0 and (b.category & a.mask) != 0. A new shape has
/// SEPAX_FILTER_DEFAULT (category 1, every mask bit: it meets everything).
typedef struct sepax_filter {
    uint32_t category; ///< the groups this shape belongs to (bits)
    uint32_t mask;     ///< the groups it collides with (bits)
} sepax_filter;

#define SEPAX_FILTER_DEFAULT_CATEGORY 1u
#define SEPAX_FILTER_DEFAULT_MASK 0xffffffffu

/// Set the filters of the shapes at indices first .. first+count-1. A removal moves the last
/// shape's filter with it. Errors, in this order: SEPAX_ERR_NULL (store), SEPAX_ERR_BAD_ID
/// (range past the shapes), then, with count > 0 (count 0 may pass NULL filters), SEPAX_ERR_NULL
/// and SEPAX_ERR_MISALIGNED (filters), as sepax_shapes_set_poses; on error nothing changes.
SEPAX_API sepax_status sepax_shapes_set_filters(sepax_shapes *store, uint32_t first, size_t count,
                                                const sepax_filter *filters);

/// The filter of shape `id` (errors as sepax_shapes_get_pose's).
SEPAX_API sepax_status sepax_shapes_get_filter(const sepax_shapes *store, uint32_t id,
                                               sepax_filter *out);

/// The caller's data kept with each shape (an entity's index, a pointer as an integer): 0 for
/// a new shape, moved with its shape by removals (the last shape's value goes to the hole)
/// and by sepax_shapes_reorder, so a frame's pair ids lead back to the caller's objects with
/// no table of the caller's to keep in step with the moves. Set for the shapes at indices
/// first .. first+count-1; errors as sepax_shapes_set_filters' (nothing changes).
SEPAX_API sepax_status sepax_shapes_set_user(sepax_shapes *store, uint32_t first, size_t count,
                                             const uint64_t *user);

/// The data of the shapes ids[0 .. n-1] into out[0 .. n-1] (a frame's n pairs are 2n ids:
/// `(const uint32_t *)pairs`). Errors, in this order: SEPAX_ERR_NULL (store; ids or out with
/// n > 0), SEPAX_ERR_MISALIGNED, SEPAX_ERR_COUNT (n too large for a size), SEPAX_ERR_ALIASED
/// (out sharing memory with ids), the first bad id's SEPAX_ERR_BAD_ID / SEPAX_ERR_STALE_ID; on
/// error nothing is written. n = 0: SEPAX_OK.
SEPAX_API sepax_status sepax_shapes_get_user(const sepax_shapes *store, const uint32_t *ids,
                                             size_t n, uint64_t *out);

/// Most workers a scheduler may run at once.
#define SEPAX_MAX_WORKERS 64

/// A piece of a frame: items begin .. end-1, run on worker `worker` (< the scheduler's
/// workers; no two calls running at the same time get the same worker).
typedef void sepax_task_fn(uint32_t begin, uint32_t end, uint32_t worker, void *task_context);

/// How a frame is spread over threads, for engines with their own job system (the model of
/// Box2D 3's task callbacks). parallel_for must call fn over disjoint ranges that cover items
/// 0 .. count-1, each with a worker index as above, and return when all have finished. The
/// results never depend on how the items were split or on which worker ran them. sepax never
/// calls it with count 0; a frame may not call it at all (an empty store's, or one below
/// sepax_broadphase_config.min_parallel_shapes with few candidate pairs).
typedef struct sepax_scheduler {
    void (*parallel_for)(sepax_task_fn *fn, uint32_t count, void *task_context, void *user);
    uint32_t workers; ///< 1 .. SEPAX_MAX_WORKERS
    void *user;       ///< passed to parallel_for
} sepax_scheduler;

/// A uniform-grid broadphase with its frame pipeline: owns its grid and scratch memory (grown
/// on the calling thread, kept between frames, so a steady frame allocates nothing).
/// One thread at a time drives it (sepax_find_contacts(_posed), sepax_broadphase_build, trim,
/// destroy; the frame spreads itself over the workers); between those calls, any number of
/// threads may run sepax_broadphase_query_* and sepax_broadphase_stats_get on it at once.
typedef struct sepax_broadphase sepax_broadphase;

typedef struct sepax_broadphase_config {
    /// threads of the built-in scheduler, the caller's included: 0 or 1 runs every frame on
    /// the calling thread; at most SEPAX_MAX_WORKERS. Ignored when `scheduler` is set.
    uint32_t threads;
    const sepax_scheduler *scheduler; ///< NULL: the built-in one; else copied
    const sepax_allocator *allocator; ///< NULL: the C library's; else copied
    /// A frame over fewer shapes runs its per-shape steps (update, grid build) on the calling
    /// thread alone: waking the workers costs more than they save there. Its pairing is
    /// spread only when the last frame on this broadphase found at least
    /// min_parallel_shapes / 2 candidate pairs (sepax_broadphase_stats' candidates: a dense
    /// scene). 0: SEPAX_MIN_PARALLEL_SHAPES; 1: always spread. The results are the same
    /// either way.
    uint32_t min_parallel_shapes;
} sepax_broadphase_config;

/// The default of sepax_broadphase_config.min_parallel_shapes.
#define SEPAX_MIN_PARALLEL_SHAPES 32768u

/// NULL when out of memory, threads could not start, or the config is invalid
/// (threads > SEPAX_MAX_WORKERS, a scheduler without parallel_for or with 0 or too many
/// workers, an allocator without alloc or free, any of the three structs not aligned for its
/// type). config NULL: one thread, the C library's memory.
SEPAX_API sepax_broadphase *sepax_broadphase_create(const sepax_broadphase_config *config);

/// Stop its threads and free everything. NULL is allowed.
SEPAX_API void sepax_broadphase_destroy(sepax_broadphase *bp);

/// Give back the memory of the frames' results: the room each part of a frame keeps for its
/// largest frame so far (a frame of 50M pairs leaves about 400 MB held), the list of parts run
/// again, and a lazy frame's marks. The grid stays as it is, so the sepax_broadphase_query_*
/// calls, sepax_broadphase_order and sepax_broadphase_stats_get answer as before; the next
/// frame grows what it needs again and finds the same results. Driven like sepax_find_contacts
/// (one thread, no query running). The grid's own arrays, sized for the most shapes built so
/// far, go only with sepax_broadphase_destroy. Errors: SEPAX_ERR_NULL.
SEPAX_API sepax_status sepax_broadphase_trim(sepax_broadphase *bp);

/// What sepax_find_contacts runs on each pair the broadphase finds.
typedef enum sepax_test {
    /// nothing: the candidate pairs (filters pass, and bounding boxes overlap once the grid has
    /// grown each by 2^-20 of the sum of its four coordinates' magnitudes plus 2^-62, beyond the
    /// margin)
    SEPAX_TEST_AABB = 0,
    SEPAX_TEST_OVERLAP = 1, ///< sepax_overlap: the pairs that touch
    SEPAX_TEST_COLLIDE = 2, ///< sepax_collide: the pairs that touch, with normal and depth
    SEPAX_TEST_MANIFOLD = 3 ///< sepax_collide_manifold: the pairs that touch, with contact points
} sepax_test;

/// What sepax_find_contacts updates before the broadphase, split over the workers.
typedef enum sepax_frame_update {
    SEPAX_UPDATE_NONE = 0, ///< nothing: the world data of the last update
    /// What the frame reads: records and bounding boxes, not the store's transposed rows,
    /// which only sepax_overlap_one and sepax_raycast_range read. Until the next
    /// sepax_shapes_update (or a frame with SEPAX_UPDATE_ALL) those two then give the same
    /// answers for the new poses from the records, through the pair kernels (overlap_one
    /// takes about 1.6x its time, raycast_range 1.1x). The update is about a fifth cheaper.
    /// From 4,096 shapes, when the last frame on the same broadphase had at most an eighth as
    /// many candidate pairs as shapes (bullets that rarely touch), the records are written
    /// with non-temporal stores, around the caches, as every update does from 16,384 shapes:
    /// the same bits, without reading each record's lines from memory first.
    SEPAX_UPDATE_FRAME = 1,
    SEPAX_UPDATE_ALL = 2, ///< everything sepax_shapes_update writes
    /// After it, every query that reads world records (sweeps and raycasts too) returns
    /// SEPAX_ERR_STALE_WORLD until a whole update; see below. Every shape's bounding box (what
    /// the grid reads), then only the records of the shapes in candidate pairs (found by pairing
    /// twice: once to mark them, once to test), for scenes where few shapes touch anything, such as
    /// bullets against a player: the other records are neither read nor written. When the last
    /// frame on the same broadphase had more candidate pairs than an eighth of the shapes, the
    /// second pairing would cost more than it spares, and every record is written as with
    /// SEPAX_UPDATE_FRAME. Either way, until the next sepax_shapes_update or a frame with
    /// SEPAX_UPDATE_FRAME or ALL, every query that reads world records (the pair queries,
    /// overlap_one, the raycasts, sepax_shapes_view, the broadphase's shape and ray queries, a
    /// frame with SEPAX_UPDATE_NONE other than SEPAX_TEST_AABB) returns SEPAX_ERR_STALE_WORLD and
    /// writes nothing; the bounds stay current. The frame's results are the same bits as with the
    /// other updates.
    SEPAX_UPDATE_LAZY = 3
} sepax_frame_update;

typedef struct sepax_frame_options {
    int test;        ///< a sepax_test
    float margin;    ///< as sepax_query_options.margin (finite, |margin| <= SEPAX_COORD_LIMIT)
    float cell_size; ///< grid cell edge; 0: chosen from the shapes' sizes. Finite, >= 0.
    int update;      ///< a sepax_frame_update
} sepax_frame_options;

/// Where sepax_find_contacts writes: entry k of each array is result k.
typedef struct sepax_contacts {
    sepax_pair *pairs;         ///< required; ids, pair.a's index below pair.b's
    sepax_hit *hits;           ///< SEPAX_TEST_COLLIDE: required; otherwise unused
    sepax_manifold *manifolds; ///< SEPAX_TEST_MANIFOLD: required; otherwise unused
    /// entries each array holds: the aliasing check (SEPAX_ERR_ALIASED) takes each array the
    /// test fills to span that many, so a capacity larger than the arrays can make them overlap
    size_t capacity;
} sepax_contacts;

/// Every contact of a frame in one call: (optionally) update world data, build the grid over
/// the store's bounding boxes, pair the shapes whose boxes overlap (grown by a positive margin)
/// and whose filters pass, run the test on those pairs, and write the pairs that pass it. Pairs
/// come in grid-cell order, and the result (order included) is the same for every thread count
/// and scheduler. *count is the number of results; when it exceeds out->capacity the call
/// returns SEPAX_ERR_CAPACITY, writes nothing into `out`, holds none of the results (the
/// broadphase's memory does not grow for them), and a second call with that much room gets
/// every result. Errors, in this order: SEPAX_ERR_NULL (bp, store, options, out, count),
/// SEPAX_ERR_MISALIGNED (count, options, out), SEPAX_ERR_BAD_OPTION (test or update unknown),
/// the margin's NONFINITE / RANGE, SEPAX_ERR_NONFINITE or SEPAX_ERR_RANGE (cell_size), then,
/// with out->capacity > 0, SEPAX_ERR_NULL and SEPAX_ERR_MISALIGNED for the arrays the test needs
/// (which arrays those are depends on a valid test), SEPAX_ERR_ALIASED (those arrays, for
/// capacity entries each, and *count sharing memory with each other or with *options or *out,
/// which the call reads until it copies the results), SEPAX_ERR_STALE_WORLD (SEPAX_UPDATE_NONE
/// with a test that reads records, after a lazy frame), SEPAX_ERR_NOMEM (scratch could not
/// grow). The grid stays built for the sepax_broadphase_query_* calls until the
/// next frame.
SEPAX_API sepax_status sepax_find_contacts(sepax_broadphase *bp, sepax_shapes *store,
                                           const sepax_frame_options *options,
                                           const sepax_contacts *out, size_t *count);

/// sepax_shapes_set_poses(store, first, pose_count, poses) then sepax_find_contacts in one
/// call: poses[i] for shape index first + i, checked, then transposed into the store by the
/// frame's threads in the update's shares, where sepax_shapes_set_poses is one serial pass on
/// the calling thread. A level's walls kept first in the store need not be sent again: pass
/// first = the walls' count and the rest. Same results, bits and order as the two calls, and
/// the same store after. All or nothing: when a pose breaks the rules of
/// sepax_shapes_set_poses, the call returns the status that call would (the first bad pose in
/// index order), with the store, the broadphase's grid, `out` and *count untouched. With
/// SEPAX_UPDATE_NONE the poses are stored and nothing else is recomputed, as after
/// sepax_shapes_set_poses. Errors: those of sepax_find_contacts, checked first; then those of
/// sepax_shapes_set_poses in its order: SEPAX_ERR_BAD_ID (first + pose_count past the store's
/// count), SEPAX_ERR_NULL (poses, when pose_count > 0), SEPAX_ERR_MISALIGNED (poses),
/// SEPAX_ERR_ALIASED (poses sharing memory with an output), and the poses' NONFINITE / RANGE /
/// BAD_POSE. Once the poses are stored, a later SEPAX_ERR_CAPACITY
/// or SEPAX_ERR_NOMEM leaves them (and the update) in the store, as the two calls would.
SEPAX_API sepax_status sepax_find_contacts_posed(sepax_broadphase *bp, sepax_shapes *store,
                                                 uint32_t first, size_t pose_count,
                                                 const sepax_pose *poses,
                                                 const sepax_frame_options *options,
                                                 const sepax_contacts *out, size_t *count);

/// Build only the grid (what sepax_find_contacts does before pairing), for queries.
SEPAX_API sepax_status sepax_broadphase_build(sepax_broadphase *bp, const sepax_shapes *store,
                                              float cell_size);

/// Figures of the last grid built and frame run.
typedef struct sepax_broadphase_stats {
    uint32_t shapes;   ///< shapes in the grid
    uint32_t large;    ///< shapes in the separate list: too large for a cell, or small and far from
                       ///< the rest
    uint32_t cells_x;  ///< grid columns
    uint32_t cells_y;  ///< grid rows
    float cell_size;   ///< the cell edge used
    size_t candidates; ///< pairs whose grown boxes overlap and filters pass (SEPAX_TEST_AABB)
    size_t results;    ///< pairs that passed the test (the last *count)
    size_t bytes;      ///< memory the broadphase holds now
    /// Wall time of the last call's phases in nanoseconds, on the calling thread's monotonic
    /// clock, for profiling (like Box2D's b2Profile): timings vary from run to run, results
    /// never do. A phase the call did not reach or run (no update asked, an error before it)
    /// reads 0; sepax_broadphase_build sets only grid_ns.
    uint64_t update_ns; ///< sepax_find_contacts' world update, over the workers (with
                        ///< SEPAX_UPDATE_LAZY, its marking pairing and records pass too);
                        ///< for sepax_find_contacts_posed, the poses' check and store too
                        ///< (so not 0 with SEPAX_UPDATE_NONE)
    uint64_t grid_ns;   ///< the grid build: boxes, cells, the sort
    uint64_t pairs_ns;  ///< pairing, filters and the test, over the workers (a redo included)
    uint64_t copy_ns;   ///< the results into the caller's arrays
} sepax_broadphase_stats;

SEPAX_API sepax_status sepax_broadphase_stats_get(const sepax_broadphase *bp,
                                                  sepax_broadphase_stats *out);

/// The store indices of the last grid's shapes in grid order (small shapes by filter group,
/// then cell; then the large ones, by their grown boxes' lower x, or in bands of lower y each
/// by lower x when crowded in x: README "A whole frame") into order[0 .. count-1]:
/// the argument sepax_shapes_reorder takes to put the store in spatial order. count must be
/// sepax_shapes_count(store) and the grid built from this store with no shape added, removed
/// or moved since. Errors, with nothing written: SEPAX_ERR_NULL, SEPAX_ERR_MISALIGNED,
/// SEPAX_ERR_NO_GRID (no grid was built, or the last build failed), SEPAX_ERR_COUNT (count is
/// not the store's or the grid's), SEPAX_ERR_STALE_ID (a grid id no longer current).
SEPAX_API sepax_status sepax_broadphase_order(const sepax_broadphase *bp, const sepax_shapes *store,
                                              uint32_t *order, uint32_t count);

/// Ids of the shapes whose bounding boxes overlap `box` (touching counts), in grid order; a box
/// whose lower corner is above its upper one on an axis overlaps nothing (SEPAX_OK, count 0).
/// *count is how many there are; more than capacity: SEPAX_ERR_CAPACITY with the first
/// `capacity` of them written. ids (and a ray query's hits) must hold capacity entries: the
/// aliasing check takes them to span that many (counted up to the end of memory), so a capacity
/// larger than the buffers can make them overlap *count or each other (SEPAX_ERR_ALIASED).
/// The grid must have been built from this store, unchanged since (else results are stale
/// but memory-safe). Errors: SEPAX_ERR_NULL, SEPAX_ERR_MISALIGNED (ids, *count),
/// SEPAX_ERR_ALIASED (*count within ids' capacity entries), NONFINITE / RANGE (box), then
/// SEPAX_ERR_NO_GRID when there is no grid (none built, or the last build ran out of memory before
/// its grid was whole; an empty answer would read as "nothing there"), checked last; on any other
/// error nothing is written, *count included. The same for the two queries below.
SEPAX_API sepax_status sepax_broadphase_query_aabb(const sepax_broadphase *bp,
                                                   const sepax_shapes *store, sepax_aabb box,
                                                   uint32_t *ids, size_t capacity, size_t *count);

/// sepax_broadphase_query_aabb among the shapes whose filter meets `filter` (sepax_filter's
/// rule: each one's category in the other's mask; NULL: every shape, as the call above), as an
/// engine asks for "the enemies in this blast". Errors as sepax_broadphase_query_aabb's, with
/// a misaligned `filter` among the SEPAX_ERR_MISALIGNED and `filter` sharing memory with an
/// output among the SEPAX_ERR_ALIASED; on error nothing is written.
SEPAX_API sepax_status sepax_broadphase_query_aabb_filtered(
    const sepax_broadphase *bp, const sepax_shapes *store, sepax_aabb box,
    const sepax_filter *filter, uint32_t *ids, size_t capacity, size_t *count);

/// Ids of the shapes that touch shape `probe` (sepax_overlap exact, with the margin, filters
/// applied, the probe itself left out), in grid order; capacity as sepax_broadphase_query_aabb.
/// Errors as sepax_broadphase_query_aabb's, with the probe's SEPAX_ERR_BAD_ID /
/// SEPAX_ERR_STALE_ID and then the margin's SEPAX_ERR_NONFINITE / SEPAX_ERR_RANGE (as
/// sepax_query_options) in place of the box's, and SEPAX_ERR_STALE_WORLD after a lazy frame
/// (before SEPAX_ERR_NO_GRID).
SEPAX_API sepax_status sepax_broadphase_query_shape(const sepax_broadphase *bp,
                                                    const sepax_shapes *store, uint32_t probe,
                                                    float margin, uint32_t *ids, size_t capacity,
                                                    size_t *count);

/// The shapes a ray hits (sepax_raycast exact), ids[k] with hits[k], in grid order;
/// capacity as sepax_broadphase_query_aabb. For the closest, sepax_broadphase_raycast_closest.
/// Errors: SEPAX_ERR_NULL (ray, hits with capacity > 0, then as sepax_broadphase_query_aabb),
/// SEPAX_ERR_MISALIGNED, SEPAX_ERR_ALIASED (ids, hits and *count sharing memory with each other
/// or with *ray), the ray's NONFINITE / RANGE (as sepax_raycast), SEPAX_ERR_STALE_WORLD, then
/// SEPAX_ERR_NO_GRID; on any of them nothing is written.
SEPAX_API sepax_status sepax_broadphase_query_ray(const sepax_broadphase *bp,
                                                  const sepax_shapes *store, const sepax_ray *ray,
                                                  uint32_t *ids, sepax_ray_hit *hits,
                                                  size_t capacity, size_t *count);

/// sepax_broadphase_query_ray among the shapes whose filter meets `filter` (NULL: every shape);
/// errors as sepax_broadphase_query_ray's, with a misaligned `filter` among the
/// SEPAX_ERR_MISALIGNED; on error nothing is written.
SEPAX_API sepax_status sepax_broadphase_query_ray_filtered(
    const sepax_broadphase *bp, const sepax_shapes *store, const sepax_ray *ray,
    const sepax_filter *filter, uint32_t *ids, sepax_ray_hit *hits, size_t capacity, size_t *count);

/// The first shape each ray hits: for i < n, ids[i] and hits[i] are the shape, among those
/// whose filter meets filters[i] (sepax_filter's rule; filters NULL: every shape), with the
/// least sepax_raycast fraction (of equal fractions, the lowest index), and its hit exactly as
/// sepax_raycast gives it; a ray that hits nothing gets SEPAX_NO_ID and a miss (all zeros).
/// The walk visits the grid's rows and columns in the ray's direction and stops where the
/// closest hit so far lies before the next cells, so a ray that hits something near costs
/// little however far it reaches. The grid must have been built from this store, unchanged
/// since (else the answers are stale but memory-safe). Errors, in this order: SEPAX_ERR_NULL (bp,
/// store; rays, ids or hits with n > 0), SEPAX_ERR_MISALIGNED, SEPAX_ERR_COUNT (n too large for a
/// size), SEPAX_ERR_ALIASED (ids and hits sharing memory with each other, rays or filters), the
/// first bad ray's NONFINITE / RANGE (as sepax_raycast), SEPAX_ERR_STALE_WORLD, then
/// SEPAX_ERR_NO_GRID (as sepax_broadphase_query_aabb); on any error nothing is written.
SEPAX_API sepax_status sepax_broadphase_raycast_closest(const sepax_broadphase *bp,
                                                        const sepax_shapes *store,
                                                        const sepax_ray *rays,
                                                        const sepax_filter *filters, size_t n,
                                                        uint32_t *ids, sepax_ray_hit *hits);

/// Force a backend for the whole process (SEPAX_BACKEND_AUTO: pick the best).
/// Returns SEPAX_ERR_UNSUPPORTED, and changes nothing, when the backend was not
/// built or the CPU lacks it. Call it before queries start on other threads.
SEPAX_API sepax_status sepax_set_backend(sepax_backend backend);

/// The backend queries currently use (chosen on first use if not set). When the
/// SEPAX_BACKEND environment variable names no backend this CPU runs (names are lowercase, as
/// sepax_backend_name gives them, or one AVX-512 table: avx512-512, avx512-256, avx512-zen5,
/// which read SEPAX_BACKEND_AVX512 here), SEPAX_BACKEND_AUTO: every query then returns that
/// error (SEPAX_ERR_BAD_BACKEND or SEPAX_ERR_UNSUPPORTED) until sepax_set_backend.
SEPAX_API sepax_backend sepax_get_backend(void);

/// "scalar", "sse2", "sse41", "avx2", "avx512", "neon", and "auto" for SEPAX_BACKEND_AUTO;
/// NULL for an invalid value.
SEPAX_API const char *sepax_backend_name(sepax_backend backend);

/// 1 if `backend` is compiled in and this CPU can run it, else 0.
SEPAX_API int sepax_backend_available(sepax_backend backend);

/// Parse a backend name as accepted by the SEPAX_BACKEND environment variable (not its
/// AVX-512 table names, which are no backends of their own). Errors, with
/// *out untouched: SEPAX_ERR_NULL, SEPAX_ERR_MISALIGNED (out), SEPAX_ERR_BAD_BACKEND.
SEPAX_API sepax_status sepax_backend_from_name(const char *name, sepax_backend *out);

#ifdef __cplusplus
}
#endif

#endif /* SEPAX_H */
