/* The benchmark's scenes: see scenes.h. All arithmetic is IEEE double (the project builds
 * with -ffp-contract=off), floor and sqrt (exact or correctly rounded everywhere) and
 * sepax_rot; the generator is splitmix64. */
#include "scenes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TWO_PI 6.283185307179586

enum { M_ORBIT, M_LINEAR, M_WAVE, M_DRIFT };

/* How a shape moves: its pose at frame f is motion_pose(m, f). */
typedef struct motion {
    uint8_t type;
    uint8_t turns;              /* polygons turn; circles keep the identity rotation */
    float ox, oy;               /* origin */
    float dx, dy;               /* unit direction (LINEAR, WAVE) or velocity per frame (DRIFT) */
    float speed;                /* px per frame along d (LINEAR, WAVE) */
    float age0;                 /* frames already flown at frame 0 (LINEAR, WAVE) */
    float amp, amp2;            /* ORBIT: x and y radii; WAVE, DRIFT: amplitude */
    float omega, omega2, phase; /* rad per frame; start angle */
    float rot0, spin;           /* rotation at age 0, rad per frame */
} motion;

struct scene {
    const char *name;
    uint32_t n, count;
    uint64_t seed;
    double w, h;
    int default_filters;
    scene_shape *shape;
    sepax_filter *filter;
    motion *move;
};

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* uniform in [lo, hi) */
static double uni(rng *r, double lo, double hi) {
    return lo + (hi - lo) * ((double)(next(r) >> 11) * (1.0 / 9007199254740992.0));
}

static uint32_t below(rng *r, uint32_t n) { return (uint32_t)((next(r) >> 32) * n >> 32); }

/* an angle reduced to [0, 2 pi), as sepax_rot wants it small */
static float reduced(double angle) { return (float)(angle - floor(angle / TWO_PI) * TWO_PI); }
static sepax_rotation rot(double angle) { return sepax_rot(reduced(angle)); }

static double wrap(double x, double w) {
    x -= floor(x / w) * w;
    return x >= w || x < 0 ? 0 : x;
}

/* a regular polygon of `count` vertices and circumradius r, turned by `turn`, each vertex
 * pulled in by up to `jitter` of r; convex and counter-clockwise through sepax_hull */
static void make_polygon(rng *g, scene_shape *out, int count, double r, double jitter) {
    sepax_vec2 pts[SEPAX_MAX_VERTS];
    double turn = uni(g, 0, TWO_PI);
    for (int k = 0; k < count; k++) {
        sepax_rotation q = rot(turn + TWO_PI * k / count);
        double rr = r * (1.0 - uni(g, 0, jitter));
        pts[k].x = (float)(rr * q.c);
        pts[k].y = (float)(rr * q.s);
    }
    int n = 0;
    out->kind = SEPAX_KIND_POLYGON;
    out->radius = 0;
    if (sepax_hull(pts, count, out->vertex, &n) != SEPAX_OK || n < 3) {
        /* cannot happen for these sizes; a triangle keeps the scene valid */
        out->vertex[0] = (sepax_vec2){(float)r, 0};
        out->vertex[1] = (sepax_vec2){(float)-r, (float)r};
        out->vertex[2] = (sepax_vec2){(float)-r, (float)-r};
        n = 3;
    }
    out->count = n;
}

static void make_box(scene_shape *out, double hw, double hh) {
    out->kind = SEPAX_KIND_POLYGON;
    out->count = 4;
    out->radius = 0;
    out->vertex[0] = (sepax_vec2){(float)-hw, (float)-hh};
    out->vertex[1] = (sepax_vec2){(float)hw, (float)-hh};
    out->vertex[2] = (sepax_vec2){(float)hw, (float)hh};
    out->vertex[3] = (sepax_vec2){(float)-hw, (float)hh};
}

static void make_circle(scene_shape *out, double r) {
    memset(out, 0, sizeof *out);
    out->kind = SEPAX_KIND_CIRCLE;
    out->count = 1;
    out->radius = (float)r;
}

/* a small shape: a circle of radius r_lo..r_hi, or a triangle, box, (pentagon,) hexagon of
 * that circumradius; polygons turn */
static void small_shape(rng *g, scene_shape *sh, motion *m, double circles, double r_lo,
                        double r_hi, int pentagons) {
    double r = uni(g, r_lo, r_hi);
    if (uni(g, 0, 1) < circles) {
        make_circle(sh, r);
        m->turns = 0;
        return;
    }
    uint32_t k = below(g, pentagons ? 4 : 3);
    if (k == 0) {
        make_polygon(g, sh, 3, r, 0);
    } else if (k == 1) {
        double hw = r * uni(g, 0.55, 0.75); /* one draw a statement: C leaves the order of */
        double hh = r * uni(g, 0.55, 0.75); /* a call's arguments to the compiler */
        make_box(sh, hw, hh);
    } else {
        make_polygon(g, sh, k == 3 ? 5 : 6, r, 0);
    }
    m->turns = 1;
    m->rot0 = (float)uni(g, 0, TWO_PI);
    double spin = uni(g, 0.01, 0.1);
    m->spin = (float)(below(g, 2) ? spin : -spin);
}

static const double PLAYER_X = 960, PLAYER_Y = 860;

static void bullet_hell(scene *s, rng *g) {
    s->w = 1920;
    s->h = 1080;
    s->default_filters = 0;
    /* the player */
    make_circle(&s->shape[0], 12);
    s->filter[0] = (sepax_filter){SCENE_PLAYER, SCENE_ENEMY | SCENE_ENEMY_SHOT};
    s->move[0] = (motion){.type = M_ORBIT,
                          .ox = (float)PLAYER_X,
                          .oy = (float)PLAYER_Y,
                          .amp = 520,
                          .amp2 = 110,
                          .omega = 0.011f,
                          .omega2 = 0.017f};
    /* enemies: boxes and polygons 30-60 px across */
    double ex[SCENE_ENEMIES], ey[SCENE_ENEMIES];
    for (uint32_t e = 0; e < SCENE_ENEMIES; e++) {
        uint32_t i = 1 + e;
        motion *m = &s->move[i];
        if (below(g, 3) == 0) {
            double hw = uni(g, 15, 30), hh = uni(g, 15, 30);
            make_box(&s->shape[i], hw, hh);
        } else {
            int verts = 5 + (int)below(g, 4);
            make_polygon(g, &s->shape[i], verts, uni(g, 15, 30), 0.15);
        }
        s->filter[i] = (sepax_filter){SCENE_ENEMY, SCENE_PLAYER | SCENE_PLAYER_SHOT};
        ex[e] = uni(g, 120, 1800);
        ey[e] = uni(g, 80, 620);
        *m = (motion){.type = M_ORBIT, .turns = 1, .ox = (float)ex[e], .oy = (float)ey[e]};
        m->amp = (float)uni(g, 20, 80);
        m->amp2 = (float)uni(g, 10, 40);
        m->omega = (float)uni(g, 0.004, 0.015);
        m->omega2 = (float)uni(g, 0.004, 0.015);
        m->phase = (float)uni(g, 0, TWO_PI);
        m->rot0 = (float)uni(g, 0, TWO_PI);
        double spin = uni(g, 0.002, 0.02);
        m->spin = (float)(below(g, 2) ? spin : -spin);
    }
    /* each enemy's spiral: arms, turn per bullet, frames between bullets, speed */
    uint32_t fired[SCENE_ENEMIES] = {0}, streamed[SCENE_ENEMIES] = {0};
    for (uint32_t b = 0; b < s->n; b++) {
        uint32_t i = 1 + SCENE_ENEMIES + b;
        motion *m = &s->move[i];
        *m = (motion){.type = M_LINEAR};
        small_shape(g, &s->shape[i], m, 0.6, 2, 5, 0);
        m->spin *= 2;
        double u = uni(g, 0, 1);
        double angle = 0;
        if (u < 0.1) { /* the player's shots: upwards from along its path, fast */
            s->filter[i] = (sepax_filter){SCENE_PLAYER_SHOT, SCENE_ENEMY};
            m->ox = (float)(PLAYER_X + uni(g, -520, 520));
            m->oy = (float)PLAYER_Y;
            angle = -TWO_PI / 4 + uni(g, -0.25, 0.25);
            m->speed = (float)uni(g, 8, 14);
            m->age0 = (float)uni(g, 0, 2000);
        } else {
            s->filter[i] = (sepax_filter){SCENE_ENEMY_SHOT, SCENE_PLAYER};
            uint32_t e = below(g, SCENE_ENEMIES);
            m->ox = (float)ex[e];
            m->oy = (float)ey[e];
            if (u < 0.7) { /* spirals */
                uint32_t arms = 3 + e % 4, k = fired[e]++;
                uint32_t arm = k % arms, j = k / arms;
                angle = TWO_PI * arm / arms + j * (0.07 + 0.01 * (e % 5));
                m->speed = (float)(1.5 + 0.25 * (e % 7));
                m->age0 = (float)(j * (1.0 + 0.5 * (e % 3)));
            } else if (u < 0.85) { /* streams aimed near the player's centre */
                double vx = PLAYER_X - ex[e], vy = PLAYER_Y - ey[e];
                double len = sqrt(vx * vx + vy * vy), spread = uni(g, -0.3, 0.3);
                double dx = vx / len - spread * vy / len, dy = vy / len + spread * vx / len;
                double l2 = sqrt(dx * dx + dy * dy);
                m->dx = (float)(dx / l2);
                m->dy = (float)(dy / l2);
                m->speed = (float)uni(g, 3, 5);
                m->age0 = (float)(4.0 * streamed[e]++ + uni(g, 0, 4));
                continue;
            } else { /* sine waves across the field */
                m->type = M_WAVE;
                m->ox = 0;
                m->oy = (float)uni(g, 0, s->h);
                angle = uni(g, -0.3, 0.3);
                angle += below(g, 2) ? TWO_PI / 2 : 0;
                m->speed = (float)uni(g, 2, 4);
                m->age0 = (float)uni(g, 0, 3000);
                m->amp = (float)uni(g, 20, 60);
                m->omega = (float)uni(g, 0.03, 0.08);
                m->phase = (float)uni(g, 0, TWO_PI);
            }
        }
        sepax_rotation q = rot(angle);
        m->dx = q.c;
        m->dy = q.s;
    }
}

static void particles(scene *s, rng *g) {
    /* about 4 candidate pairs a shape: density 1/8 per unit area for shapes ~4 across */
    s->w = s->h = floor(sqrt(8.0 * s->n)) + 8;
    s->default_filters = 1;
    for (uint32_t i = 0; i < s->n; i++) {
        motion *m = &s->move[i];
        *m = (motion){.type = M_DRIFT};
        small_shape(g, &s->shape[i], m, 0.5, 1.5, 2.5, 1);
        s->filter[i] = (sepax_filter){SEPAX_FILTER_DEFAULT_CATEGORY, SEPAX_FILTER_DEFAULT_MASK};
        m->ox = (float)uni(g, 0, s->w);
        m->oy = (float)uni(g, 0, s->h);
        sepax_rotation q = rot(uni(g, 0, TWO_PI));
        double v = uni(g, 0.05, 0.4);
        m->dx = (float)(v * q.c);
        m->dy = (float)(v * q.s);
        m->amp = (float)uni(g, 0.2, 1.0);
        m->omega = (float)uni(g, 0.05, 0.2);
        m->phase = (float)uni(g, 0, TWO_PI);
    }
}

scene *scene_create(const char *name, uint32_t n, uint64_t seed) {
    int bullets = strcmp(name, "bullet-hell") == 0;
    if (!bullets && strcmp(name, "particles") != 0) return NULL;
    uint64_t count = bullets ? (uint64_t)n + 1 + SCENE_ENEMIES : n;
    if (n == 0 || count > SEPAX_MAX_SHAPES) return NULL;
    scene *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->name = bullets ? "bullet-hell" : "particles";
    s->n = n;
    s->count = (uint32_t)count;
    s->seed = seed;
    s->shape = malloc(count * sizeof *s->shape);
    s->filter = malloc(count * sizeof *s->filter);
    s->move = malloc(count * sizeof *s->move);
    if (!s->shape || !s->filter || !s->move) {
        scene_destroy(s);
        return NULL;
    }
    rng g = {seed ^ (bullets ? 0x5e9a8b0113e11ull : 0x9a27c1e5ull)};
    if (bullets)
        bullet_hell(s, &g);
    else
        particles(s, &g);
    return s;
}

void scene_destroy(scene *s) {
    if (!s) return;
    free(s->shape);
    free(s->filter);
    free(s->move);
    free(s);
}

const char *scene_name(const scene *s) { return s->name; }
uint32_t scene_count(const scene *s) { return s->count; }
uint32_t scene_n(const scene *s) { return s->n; }
uint64_t scene_seed(const scene *s) { return s->seed; }
void scene_field(const scene *s, float *w, float *h) {
    *w = (float)s->w;
    *h = (float)s->h;
}
const scene_shape *scene_shape_at(const scene *s, uint32_t index) { return &s->shape[index]; }
sepax_filter scene_filter(const scene *s, uint32_t index) { return s->filter[index]; }
int scene_default_filters(const scene *s) { return s->default_filters; }

/* A pose is made of up to three rotations, by motion: the first (an orbit's x, a drift's
 * wobble, a wave's side), an orbit's second (its y) and a turning shape's own; these are
 * their angles (0 where a motion has none), and the pose made from their rotations. */
static double motion_age(const motion *m, double f) {
    return m->type == M_ORBIT || m->type == M_DRIFT ? f : m->age0 + f;
}

static void pose_angles(const motion *m, uint32_t frame, float angle[3]) {
    double f = frame, age = motion_age(m, f);
    angle[0] = angle[1] = angle[2] = 0.0f;
    if (m->type == M_ORBIT) {
        angle[0] = reduced(m->phase + m->omega * f);
        angle[1] = reduced(m->phase + m->omega2 * f);
    } else if (m->type == M_DRIFT || m->type == M_WAVE)
        angle[0] = reduced(m->phase + m->omega * (m->type == M_DRIFT ? f : age));
    if (m->turns) angle[2] = reduced(m->rot0 + m->spin * age);
}

static sepax_pose pose_from(const scene *s, const motion *m, uint32_t frame,
                            const sepax_rotation q[3]) {
    double f = frame, x, y, age = motion_age(m, f);
    switch (m->type) {
    case M_ORBIT:
        x = m->ox + m->amp * (double)q[0].c;
        y = m->oy + m->amp2 * (double)q[1].s;
        break;
    case M_DRIFT:
        x = wrap(m->ox + m->dx * f + m->amp * (double)q[0].c, s->w);
        y = wrap(m->oy + m->dy * f + m->amp * (double)q[0].s, s->h);
        break;
    default: {
        double d = m->speed * age;
        x = m->ox + m->dx * d;
        y = m->oy + m->dy * d;
        if (m->type == M_WAVE) {
            double side = m->amp * (double)q[0].s;
            x -= m->dy * side;
            y += m->dx * side;
        }
        x = wrap(x, s->w);
        y = wrap(y, s->h);
        break;
    }
    }
    sepax_pose p = {{(float)x, (float)y}, {1, 0}};
    if (m->turns) p.rotation = q[2];
    return p;
}

sepax_pose scene_pose(const scene *s, uint32_t index, uint32_t frame) {
    const motion *m = &s->move[index];
    float angle[3];
    pose_angles(m, frame, angle);
    sepax_rotation q[3] = {sepax_rot(angle[0]), sepax_rot(angle[1]), sepax_rot(angle[2])};
    return pose_from(s, m, frame, q);
}

/* scene_pose for every shape, the rotations a chunk at a time through sepax_rot_many (the
 * same bits as sepax_rot: tests/test_scenes.c compares the two) */
void scene_poses(const scene *s, uint32_t frame, sepax_pose *out) {
    enum { CHUNK = 512 };
    float angle[3][CHUNK];
    sepax_rotation q[3][CHUNK];
    for (uint32_t i0 = 0; i0 < s->count; i0 += CHUNK) {
        uint32_t k = s->count - i0 < CHUNK ? s->count - i0 : CHUNK;
        for (uint32_t j = 0; j < k; j++) {
            float a[3];
            pose_angles(&s->move[i0 + j], frame, a);
            for (int r = 0; r < 3; r++) angle[r][j] = a[r];
        }
        for (int r = 0; r < 3; r++)
            if (sepax_rot_many(angle[r], k, q[r]) != SEPAX_OK) /* a SEPAX_BACKEND it cannot run */
                for (uint32_t j = 0; j < k; j++) q[r][j] = sepax_rot(angle[r][j]);
        for (uint32_t j = 0; j < k; j++) {
            sepax_rotation qj[3] = {q[0][j], q[1][j], q[2][j]};
            out[i0 + j] = pose_from(s, &s->move[i0 + j], frame, qj);
        }
    }
}

sepax_status scene_add_to(const scene *s, sepax_shapes *store) {
    uint32_t first = sepax_shapes_count(store);
    for (uint32_t i = 0; i < s->count; i++) {
        const scene_shape *sh = &s->shape[i];
        uint32_t id;
        sepax_status st = sh->kind == SEPAX_KIND_CIRCLE
                              ? sepax_shapes_add_circle(store, sh->vertex[0], sh->radius, &id)
                              : sepax_shapes_add_polygon(store, sh->vertex, sh->count, &id);
        if (st != SEPAX_OK) return st;
    }
    if (!s->default_filters) {
        sepax_status st = sepax_shapes_set_filters(store, first, s->count, s->filter);
        if (st != SEPAX_OK) return st;
    }
    enum { CHUNK = 4096 };
    sepax_pose poses[CHUNK];
    for (uint32_t i = 0; i < s->count; i += CHUNK) {
        uint32_t k = s->count - i < CHUNK ? s->count - i : CHUNK;
        for (uint32_t j = 0; j < k; j++) poses[j] = scene_pose(s, i + j, 0);
        sepax_status st = sepax_shapes_set_poses(store, first + i, k, poses);
        if (st != SEPAX_OK) return st;
    }
    return SEPAX_OK;
}

static int put_u32(FILE *f, uint32_t v) {
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    return fwrite(b, 1, 4, f) == 4 ? 0 : -1;
}

static int put_f32(FILE *f, float x) {
    uint32_t v;
    memcpy(&v, &x, 4);
    return put_u32(f, v);
}

int scene_export(const scene *s, uint32_t first_frame, uint32_t frames, FILE *f) {
    int err = fwrite("SPXF", 1, 4, f) != 4;
    err |= put_u32(f, 1) | put_u32(f, s->count) | put_u32(f, frames) | put_u32(f, first_frame);
    err |= put_f32(f, (float)s->w) | put_f32(f, (float)s->h) | put_u32(f, 0);
    for (uint32_t i = 0; i < s->count && !err; i++) {
        const scene_shape *sh = &s->shape[i];
        err |= put_u32(f, (uint32_t)sh->kind | (uint32_t)sh->count << 8);
        err |= put_f32(f, sh->radius) | put_u32(f, s->filter[i].category) |
               put_u32(f, s->filter[i].mask);
        for (int k = 0; k < sh->count; k++)
            err |= put_f32(f, sh->vertex[k].x) | put_f32(f, sh->vertex[k].y);
    }
    for (uint32_t fr = 0; fr < frames && !err; fr++)
        for (uint32_t i = 0; i < s->count && !err; i++) {
            sepax_pose p = scene_pose(s, i, first_frame + fr);
            err |= put_f32(f, p.position.x) | put_f32(f, p.position.y) | put_f32(f, p.rotation.c) |
                   put_f32(f, p.rotation.s);
        }
    return err ? -1 : 0;
}
