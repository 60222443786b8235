// The public headers from C++ at the strictest warnings a C++ engine builds with (tools/test.sh
// builds this against the installed headers with -Werror): every function-like macro expanded,
// a store made, a pair collided, its manifold's ids built by SEPAX_FEATURE_ID as the library's.
#include <sepax.h>
#include <sepax_ref.h>

#include <cstdio>

int main() {
    sepax_shapes *store = sepax_shapes_create(4);
    if (store == nullptr) return 1;
    const sepax_vec2 square[4] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}};
    uint32_t a = 0, b = 0;
    if (sepax_shapes_add_polygon(store, square, 4, &a) != SEPAX_OK ||
        sepax_shapes_add_circle(store, sepax_vec2{1.25f, 0.5f}, 0.5f, &b) != SEPAX_OK)
        return 1;
    const sepax_pair pair = {a, b};
    sepax_manifold got = {}, want = {};
    if (sepax_collide_manifold(store, &pair, 1, &got) != SEPAX_OK ||
        sepax_ref_collide_manifold(store, &pair, 1, &want) != SEPAX_OK)
        return 1;
    // a circle against the square's right face (edge 1): face 1 of A, vertex 0 of B
    const uint32_t id = SEPAX_FEATURE_ID(1, 0, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX);
    // the same id from uint32_t and int variables (no useless, old-style or sign-changing
    // cast under g++'s -Wuseless-cast or clang++'s -Wconversion), its parts and swap, and as a
    // constant expression
    const uint32_t face = 1u;
    const int vertex = 0;
    const uint32_t again = SEPAX_FEATURE_ID(face, vertex, face, SEPAX_FEATURE_VERTEX);
    bool parts = again == id && SEPAX_FEATURE_INDEX_A(id) == 1u &&
                 SEPAX_FEATURE_TYPE_B(SEPAX_FEATURE_SWAP(id)) == SEPAX_FEATURE_FACE;
    switch (id) {
    case SEPAX_FEATURE_ID(1, 0, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX): break;
    default: parts = false;
    }
    const bool ok = parts && got.count == 1 && want.count == 1 && got.points[0].id == id &&
                    want.points[0].id == id && got.depth == want.depth;
    std::printf("C++ consumer: %u point, id %#x (want %#x), depth %g: %s\n", got.count,
                got.points[0].id, id, static_cast<double>(got.depth), ok ? "ok" : "WRONG");
    sepax_shapes_destroy(store);
    return ok ? 0 : 1;
}
