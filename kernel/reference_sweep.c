/* The reference swept SAT, one pair at a time, read through the public API.
 * Shape B moves by v = velocity_b - velocity_a relative to A over t in [0, 1]
 * (translation only), so every quantity below is a plain function of t:
 *   1. Each edge plane's separation s(t) = s(0) + rate * t, with rate = n.v
 *      for A's planes and -n.v for B's (A moves by -v relative to B). The
 *      shapes can touch only while every plane has s(t) <= rA + rB: planes
 *      closing in give an entry time, planes opening up an exit time, planes
 *      standing still beyond the radii forbid it. The slab method of a ray
 *      against a convex polygon, on the Minkowski difference's faces.
 *   2. For two sharp polygons the latest entry (or 0) is the answer. For
 *      curved shapes that entry may fall in a rounded corner of the
 *      difference, which the planes cut square: the closest core vertices
 *      at that time tell (their SAT axis separates by more than the radii),
 *      and then the contact is when those two vertices come within the radii:
 *      |d + v tau| = r, solved with the cross product form of the discriminant
 *      (|v|^2 r^2 - (d x v)^2), which keeps a bullet at 1000 units a step
 *      from cancelling itself out, in units of powers of two of the pair's own, so that
 *      its fourth powers neither overflow nor underflow.
 *   3. The normal is the entry plane's, or the corner's direction at contact,
 *      or for pairs touching at the start the least penetration's.
 * The arithmetic is the kernel's (sat_kernel.c: sweep_lanes, a pair per lane;
 * slot_sweep_lanes and run_ray_slots, a lane per plane of sharp polygons), so
 * they agree bit for bit. The kernel takes shortcuts with the same results: B's
 * rates as n.(-v) in sweep_lanes (0 - n.v in the slots, as here), a still
 * plane's exit from the division itself (IEEE infinities) instead of the
 * `never` flag; in the slots (pairs and rays) each lane's exit tested against
 * t, that exit's NaN (exactly at contact) giving way to min's other operand;
 * the equivalence tests hold it to this. */
#include <math.h>

#include "aliasing.h"
#include "misaligned.h"
#include "reference.h"

static float dot(float ax, float ay, float bx, float by) { return ax * bx + ay * by; }

/* The exponent e of m = f * 2^e with f in [0.5, 1) (frexp), no lower than -126: a subnormal
 * m and 0 count as -126, as the kernel's exponent field 0 does. */
static int pow2_exponent(float m) {
    int e;
    frexpf(m, &e);
    return m == 0.0f || e < -126 ? -126 : e;
}

typedef struct slab {
    float t_in, t_out; /* the interval all planes allow */
    sepax_vec2 n_in;   /* the normal of the plane entered last */
    int never;         /* a still plane beyond the radii */
    float s0;          /* the planes' SAT at t = 0 */
    sepax_vec2 n0;     /* and its normal */
} slab;

/* Planes of p against the vertices of q, q moving by (vx, vy) relative to p;
 * normals reported from A to B (flip: p is B). */
static void planes(const sepax_shape_view *p, const sepax_shape_view *q, float vx, float vy,
                   int flip, float radii, slab *sl) {
    for (int i = 0; i < p->planes; i++) {
        float m = dot(p->nx[i], p->ny[i], q->x[0], q->y[0]);
        for (int j = 1; j < q->count; j++) {
            float d = dot(p->nx[i], p->ny[i], q->x[j], q->y[j]);
            m = d < m ? d : m;
        }
        float s = m - p->c[i];
        float rate = dot(p->nx[i], p->ny[i], vx, vy);
        if (flip) rate = 0.0f - rate;
        sepax_vec2 n = {p->nx[i], p->ny[i]};
        if (flip) n = (sepax_vec2){0.0f - n.x, 0.0f - n.y};
        float tc = (radii - s) / rate;
        if (rate < 0.0f && tc > sl->t_in) {
            sl->t_in = tc;
            sl->n_in = n;
        }
        if (rate > 0.0f && tc < sl->t_out) sl->t_out = tc;
        if (rate == 0.0f && s > radii) sl->never = 1;
        if (s > sl->s0) {
            sl->s0 = s;
            sl->n0 = n;
        }
    }
}

/* B moving by (vx, vy) relative to A over t in [0, tmax]. */
static sepax_sweep_hit pair_sweep(const sepax_shape_view *a, const sepax_shape_view *b, float vx,
                                  float vy, float tmax) {
    sepax_sweep_hit miss = {0, 0.0f, {0.0f, 0.0f}};
    float radii = a->radius + b->radius;
    slab sl = {-INFINITY, INFINITY, {0.0f, 0.0f}, 0, -INFINITY, {0.0f, 0.0f}};
    planes(a, b, vx, vy, 0, radii, &sl);
    planes(b, a, vx, vy, 1, radii, &sl);
    float t_c = sl.t_in > 0.0f ? sl.t_in : 0.0f;
    int ok = !sl.never && !(sl.t_in > sl.t_out) && !(t_c > tmax) && !(t_c > sl.t_out);

    /* B at t_c; the closest pair of core vertices then, and its SAT axis */
    float bx[SEPAX_MAX_VERTS], by[SEPAX_MAX_VERTS];
    for (int j = 0; j < b->count; j++) {
        bx[j] = b->x[j] + vx * t_c;
        by[j] = b->y[j] + vy * t_c;
    }
    float bd2 = 0.0f, bdx = 0.0f, bdy = 0.0f;
    for (int i = 0; i < a->count; i++) {
        for (int j = 0; j < b->count; j++) {
            float dx = bx[j] - a->x[i], dy = by[j] - a->y[i];
            float d2 = dx * dx + dy * dy;
            if ((i == 0 && j == 0) || d2 < bd2) {
                bd2 = d2;
                bdx = dx;
                bdy = dy;
            }
        }
    }
    sepax_vec2 u = sepax_ref_unit(bdx, bdy);
    float hi = dot(u.x, u.y, a->x[0], a->y[0]);
    for (int i = 1; i < a->count; i++) {
        float p = dot(u.x, u.y, a->x[i], a->y[i]);
        hi = p > hi ? p : hi;
    }
    float lo = dot(u.x, u.y, bx[0], by[0]);
    for (int j = 1; j < b->count; j++) {
        float p = dot(u.x, u.y, bx[j], by[j]);
        lo = p < lo ? p : lo;
    }
    float su = lo - hi;

    sepax_sweep_hit h = {1, 0.0f, {0.0f, 0.0f}};
    if (radii > 0.0f && su > radii) { /* a rounded corner: when the two vertices meet */
        /* The quadratic multiplies four lengths, so it is solved in units of powers of two of
         * the pair's own: v in units where |v| is near 1, d and the radii in units near the
         * geometric mean of |d| and the radii (the contact vector d + v tau is as long as the
         * radii, the cross product as long as d): every product then stays finite and normal
         * for any ratio of |d| to the radii up to about 2^120. Scaling by a power of two is
         * exact, and tau comes back by the ratio of the two, so its bits are those of the
         * unscaled arithmetic wherever that stayed finite and normal. */
        int ev = pow2_exponent(fmaxf(fabsf(vx), fabsf(vy)));
        int ed = pow2_exponent(fmaxf(fabsf(bdx), fabsf(bdy))), er = pow2_exponent(radii);
        int em = (ed + er - ((ed + er) & 1)) / 2; /* the floor of their mean */
        float gv = ldexpf(1.0f, -ev), gd = ldexpf(1.0f, -em);
        /* and back from d's units to v's: by 2^(em - ev), in two halves that are floats */
        int back = em - ev, half = (back - (back & 1)) / 2;
        float back0 = ldexpf(1.0f, half), back1 = ldexpf(1.0f, back - half);
        float gvx = vx * gv, gvy = vy * gv, gdx = bdx * gd, gdy = bdy * gd, gr = radii * gd;
        float vv = gvx * gvx + gvy * gvy;
        float dv = gdx * gvx + gdy * gvy;
        float cr = gdx * gvy - gdy * gvx;
        float disc = vv * (gr * gr) - cr * cr;
        float tau = ((0.0f - dv) - sqrtf(disc)) / vv; /* in units of gd / gv */
        tau = tau > 0.0f ? tau : 0.0f;                /* NaN (no root) too */
        float t = t_c + tau * back0 * back1;
        if (!ok || disc < 0.0f || !(dv < 0.0f) || !(vv > 0.0f) || t > tmax || t > sl.t_out)
            return miss;
        h.t = t;
        float cx = gdx + gvx * tau, cy = gdy + gvy * tau; /* the direction, in d's units */
        h.normal = sepax_ref_unit(cx, cy);
    } else {
        if (!ok) return miss;
        h.t = t_c;
        if (sl.t_in > 0.0f)
            h.normal = sl.n_in;
        else if (radii > 0.0f && su > sl.s0)
            h.normal = u;
        else
            h.normal = sl.n0;
    }
    h.t = h.t + 0.0f; /* -0 is +0 */
    h.normal.x = h.normal.x + 0.0f;
    h.normal.y = h.normal.y + 0.0f;
    return h;
}

static sepax_status check_velocities(const sepax_vec2 *v, size_t n) {
    if (!v) return SEPAX_OK;
    if (MISALIGNED(v, sepax_vec2)) return SEPAX_ERR_MISALIGNED;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i].x) || !isfinite(v[i].y)) return SEPAX_ERR_NONFINITE;
        if (fabsf(v[i].x) > SEPAX_SWEEP_LIMIT || fabsf(v[i].y) > SEPAX_SWEEP_LIMIT)
            return SEPAX_ERR_RANGE;
    }
    return SEPAX_OK;
}

sepax_status sepax_ref_sweep(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                             const sepax_vec2 *velocity_a, const sepax_vec2 *velocity_b,
                             sepax_sweep_hit *out) {
    float margin;
    sepax_status st =
        sepax_ref_check_pairs(store, pairs, n, out, sizeof *out, _Alignof(sepax_sweep_hit), NULL,
                              &margin, velocity_a, velocity_b);
    if (st == SEPAX_OK && n) st = check_velocities(velocity_a, n);
    if (st == SEPAX_OK && n) st = check_velocities(velocity_b, n);
    if (st == SEPAX_OK && n) st = sepax_ref_world_current(store);
    for (size_t i = 0; st == SEPAX_OK && i < n; i++) {
        sepax_shape_view a, b;
        sepax_shapes_view(store, pairs[i].a, &a);
        sepax_shapes_view(store, pairs[i].b, &b);
        sepax_vec2 va = velocity_a ? velocity_a[i] : (sepax_vec2){0.0f, 0.0f};
        sepax_vec2 vb = velocity_b ? velocity_b[i] : (sepax_vec2){0.0f, 0.0f};
        out[i] = pair_sweep(&a, &b, vb.x - va.x, vb.y - va.y, 1.0f);
    }
    return st;
}

/* ---- raycasts: the ray's origin is a point (no planes, no radius) sweeping
 * by its direction against the shape, up to its max fraction ---- */

static sepax_ray_hit ray_against(const sepax_shape_view *shape, const sepax_ray *r) {
    float x = r->origin.x, y = r->origin.y;
    sepax_shape_view point = {SEPAX_KIND_CIRCLE, 1, 0, 0.0f, &x, &y, NULL, NULL, NULL};
    sepax_sweep_hit s = pair_sweep(shape, &point, r->direction.x, r->direction.y, r->max_fraction);
    sepax_ray_hit h = {0, 0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}};
    if (!s.hit) return h;
    h.hit = 1;
    h.fraction = s.t;
    h.point.x = (x + s.t * r->direction.x) + 0.0f;
    h.point.y = (y + s.t * r->direction.y) + 0.0f;
    h.normal = s.normal;
    return h;
}

static sepax_status check_ray(const sepax_ray *r) {
    if (!isfinite(r->origin.x) || !isfinite(r->origin.y) || !isfinite(r->direction.x) ||
        !isfinite(r->direction.y) || !isfinite(r->max_fraction))
        return SEPAX_ERR_NONFINITE;
    if (fabsf(r->origin.x) > SEPAX_COORD_LIMIT || fabsf(r->origin.y) > SEPAX_COORD_LIMIT ||
        fabsf(r->direction.x) > SEPAX_SWEEP_LIMIT || fabsf(r->direction.y) > SEPAX_SWEEP_LIMIT ||
        !(r->max_fraction >= 0.0f) || r->max_fraction > SEPAX_SWEEP_LIMIT)
        return SEPAX_ERR_RANGE;
    return SEPAX_OK;
}

sepax_status sepax_ref_raycast(const sepax_shapes *store, const sepax_ray *rays,
                               const uint32_t *shapes, size_t n, sepax_ray_hit *out) {
    if (!store) return SEPAX_ERR_NULL;
    if (n == 0) return SEPAX_OK;
    if (!rays || !shapes || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(rays, sepax_ray) || MISALIGNED(shapes, uint32_t) ||
        MISALIGNED(out, sepax_ray_hit))
        return SEPAX_ERR_MISALIGNED;
    if (n > SIZE_MAX / sizeof(sepax_ray_hit)) return SEPAX_ERR_COUNT;
    sepax_span o = sepax_span_of(out, n, sizeof *out);
    sepax_span in[2] = {sepax_span_of(rays, n, sizeof *rays),
                        sepax_span_of(shapes, n, sizeof *shapes)};
    if (sepax_spans_apart(&o, 1, in, 2) != SEPAX_OK) return SEPAX_ERR_ALIASED;
    sepax_shape_view v;
    for (size_t i = 0; i < n; i++) { /* each id's status, without reading its record */
        sepax_aabb box;
        sepax_status st = sepax_shapes_aabb(store, shapes[i], &box);
        if (st != SEPAX_OK) return st;
    }
    for (size_t i = 0; i < n; i++) {
        sepax_status st = check_ray(&rays[i]);
        if (st != SEPAX_OK) return st;
    }
    sepax_status fresh = sepax_ref_world_current(store);
    if (fresh != SEPAX_OK) return fresh;
    for (size_t i = 0; i < n; i++) {
        sepax_shapes_view(store, shapes[i], &v);
        out[i] = ray_against(&v, &rays[i]);
    }
    return SEPAX_OK;
}

sepax_status sepax_ref_raycast_range(const sepax_shapes *store, const sepax_ray *ray,
                                     uint32_t first, size_t count, sepax_ray_hit *out) {
    if (!store || !ray) return SEPAX_ERR_NULL;
    if (MISALIGNED(ray, sepax_ray)) return SEPAX_ERR_MISALIGNED;
    sepax_status st = check_ray(ray);
    if (st != SEPAX_OK) return st;
    uint32_t total = sepax_shapes_count(store);
    if (first > total || count > (size_t)(total - first)) return SEPAX_ERR_BAD_ID;
    if (count == 0) return SEPAX_OK;
    if (!out) return SEPAX_ERR_NULL;
    if (MISALIGNED(out, sepax_ray_hit)) return SEPAX_ERR_MISALIGNED;
    sepax_span o = sepax_span_of(out, count, sizeof *out), in = sepax_span_of(ray, 1, sizeof *ray);
    if ((st = sepax_spans_apart(&o, 1, &in, 1)) != SEPAX_OK) return st;
    if ((st = sepax_ref_world_current(store)) != SEPAX_OK) return st;
    for (size_t k = 0; k < count; k++) {
        sepax_shape_view v;
        sepax_shapes_view(store, sepax_shapes_id(store, first + (uint32_t)k), &v);
        out[k] = ray_against(&v, ray);
    }
    return SEPAX_OK;
}
