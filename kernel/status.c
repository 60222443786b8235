#include "sepax.h"

const char *sepax_status_str(sepax_status status) {
    switch (status) {
    case SEPAX_OK: return "SEPAX_OK: success";
    case SEPAX_ERR_NULL: return "SEPAX_ERR_NULL: a required pointer was NULL";
    case SEPAX_ERR_NONFINITE: return "SEPAX_ERR_NONFINITE: a coordinate was NaN or infinite";
    case SEPAX_ERR_RANGE: return "SEPAX_ERR_RANGE: a coordinate exceeded SEPAX_COORD_LIMIT";
    case SEPAX_ERR_TOO_FEW_POINTS:
        return "SEPAX_ERR_TOO_FEW_POINTS: too few distinct points (3 for a polygon, 2 for a "
               "capsule)";
    case SEPAX_ERR_TOO_MANY_VERTS:
        return "SEPAX_ERR_TOO_MANY_VERTS: more than SEPAX_MAX_VERTS points";
    case SEPAX_ERR_COLLINEAR: return "SEPAX_ERR_COLLINEAR: the points lie on one line";
    case SEPAX_ERR_NONCONVEX: return "SEPAX_ERR_NONCONVEX: not a convex, simple polygon";
    case SEPAX_ERR_BAD_ID: return "SEPAX_ERR_BAD_ID: a shape id not in the store";
    case SEPAX_ERR_COUNT: return "SEPAX_ERR_COUNT: a count out of range or too large";
    case SEPAX_ERR_NOMEM: return "SEPAX_ERR_NOMEM: out of memory";
    case SEPAX_ERR_BAD_BACKEND: return "SEPAX_ERR_BAD_BACKEND: unknown backend";
    case SEPAX_ERR_UNSUPPORTED:
        return "SEPAX_ERR_UNSUPPORTED: backend not built in or not on this CPU";
    case SEPAX_ERR_BAD_POSE: return "SEPAX_ERR_BAD_POSE: a rotation that is not unit length";
    case SEPAX_ERR_BAD_SIZE:
        return "SEPAX_ERR_BAD_SIZE: a radius or half extent negative, or zero where it must not be";
    case SEPAX_ERR_STALE_ID: return "SEPAX_ERR_STALE_ID: the id of a removed or replaced shape";
    case SEPAX_ERR_MISALIGNED: return "SEPAX_ERR_MISALIGNED: a buffer not aligned for its type";
    case SEPAX_ERR_CAPACITY:
        return "SEPAX_ERR_CAPACITY: an output buffer too small (the call reports the size it "
               "needs)";
    case SEPAX_ERR_BAD_OPTION: return "SEPAX_ERR_BAD_OPTION: an option outside its documented set";
    case SEPAX_ERR_DUPLICATE:
        return "SEPAX_ERR_DUPLICATE: an index given twice where each must appear once";
    case SEPAX_ERR_STALE_WORLD:
        return "SEPAX_ERR_STALE_WORLD: world data out of date after a lazy frame (call "
               "sepax_shapes_update)";
    case SEPAX_ERR_NO_GRID:
        return "SEPAX_ERR_NO_GRID: no broadphase grid to query (none built, or the last build "
               "failed)";
    case SEPAX_ERR_ALIASED:
        return "SEPAX_ERR_ALIASED: an output buffer shares memory with an input or another "
               "output";
    }
    return "unknown sepax_status";
}
