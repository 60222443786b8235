// detect-collisions (npm; since 10.x a re-export of check2d) on a scene exported by
// `sepax-bench-frame-peers --export FILE` (format in bench/scenes.h): the same frames, the
// same shapes and filters, through its BVH System (an RBush of the bodies' boxes).
//
//   node frame.mjs SCENE.spxf PAIRS.spxp [--mode pairs|checkall]
//
// Per frame: update (setPosition, and setAngle(atan2(s, c)) for polygons, without updating,
// then system.update(): boxes recomputed, moved bodies re-inserted), then
//   --mode pairs (default): broadphase = system.search(body) for every body (in the tree's
//     order, system.all(), as checkAll walks them), a pair kept once
//     (lower index first) when canInteract (the filter rule, see below) and the boxes
//     overlap; narrowphase = system.checkCollision on each candidate;
//   --mode checkall: system.checkAll(callback), the library's own loop (every pair is tested
//     from both sides; a pair is recorded once), timed as broadphase + narrowphase in one.
// Filters: detect-collisions' group is category << 16 | mask (16 bits each, Box2D's rule),
// the scene's are 1, 2, 4, 8 and their masks (particles: the defaults, all bits).
// Writes PAIRS.spxp for `sepax-bench-frame-peers --js-pairs PAIRS.spxp`: "SPXP", u32 1,
// u32 frames, u32 first frame; per frame f32 update ms, f32 broadphase ms, f32 narrowphase
// ms, u32 candidates, u32 contacts, contacts x (u32 a, u32 b); and prints the medians over
// the frames after the warm-up ones (the export says how many).
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { System, canInteract } from 'detect-collisions';

const args = process.argv.slice(2);
if (args.length < 2) {
    console.error('usage: node frame.mjs SCENE.spxf PAIRS.spxp [--mode pairs|checkall]');
    process.exit(2);
}
const mode = args[2] === '--mode' ? args[3] : 'pairs';
if (mode !== 'pairs' && mode !== 'checkall') {
    console.error(`unknown mode ${mode}`);
    process.exit(2);
}

let file = readFileSync(args[0]);
if (file.byteOffset % 4 !== 0) file = Buffer.from(file); // Float32Array needs alignment
const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
if (file.toString('latin1', 0, 4) !== 'SPXF' || view.getUint32(4, true) !== 1) {
    console.error(`${args[0]}: not a sepax scene export`);
    process.exit(1);
}
const count = view.getUint32(8, true);
const frames = view.getUint32(12, true);
const first = view.getUint32(16, true);
const warmup = view.getUint32(28, true);

// the shapes, posed at the first exported frame
const system = new System();
const bodies = new Array(count);
const isPolygon = new Uint8Array(count);
let off = 32;
const shapes = [];
for (let i = 0; i < count; i++) {
    const kindCount = view.getUint32(off, true);
    const kind = kindCount & 0xff;
    const n = (kindCount >> 8) & 0xff;
    const radius = view.getFloat32(off + 4, true);
    const category = view.getUint32(off + 8, true);
    const mask = view.getUint32(off + 12, true);
    const points = [];
    for (let k = 0; k < n; k++)
        points.push({ x: view.getFloat32(off + 16 + 8 * k, true), y: view.getFloat32(off + 20 + 8 * k, true) });
    off += 16 + 8 * n;
    shapes.push({ kind, radius, points, group: ((category & 0x7fff) << 16) | (mask & 0xffff) });
}
const posesStart = off;
const poses = (frame) => new Float32Array(file.buffer, file.byteOffset + posesStart + frame * count * 16, count * 4);

{
    const p = poses(0);
    for (let i = 0; i < count; i++) {
        const s = shapes[i];
        const options = { group: s.group, userData: i };
        const pos = { x: p[4 * i], y: p[4 * i + 1] };
        if (s.kind === 0) {
            // a circle's centre is its local vertex 0 (always the origin in the scenes)
            bodies[i] = system.createCircle({ x: pos.x + s.points[0].x, y: pos.y + s.points[0].y }, s.radius, options);
        } else {
            isPolygon[i] = 1;
            bodies[i] = system.createPolygon(pos, s.points, options);
            bodies[i].setAngle(Math.atan2(p[4 * i + 3], p[4 * i + 2]));
        }
    }
}

const out = [];
const u32 = (v) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v >>> 0);
    out.push(b);
};
const f32 = (v) => {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    out.push(b);
};
out.push(Buffer.from('SPXP', 'latin1'));
u32(1);
u32(frames);
u32(first);

const times = { update: [], broad: [], narrow: [], total: [], candidates: [], contacts: [] };
let candA = new Uint32Array(1 << 16), candB = new Uint32Array(1 << 16);
for (let f = 0; f < frames; f++) {
    const p = poses(f);
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
        const b = bodies[i];
        b.setPosition(p[4 * i], p[4 * i + 1], false);
        if (isPolygon[i]) b.setAngle(Math.atan2(p[4 * i + 3], p[4 * i + 2]), false);
    }
    system.update();
    const t1 = performance.now();
    let nc = 0;
    const contacts = [];
    let t2;
    if (mode === 'pairs') {
        // the bodies in the tree's order (as checkAll walks them): neighbours one after another
        const all = system.all();
        for (let q = 0; q < all.length; q++) {
            const a = all[q];
            const i = a.userData;
            const box = a.bbox;
            const found = system.search(a);
            for (let k = 0; k < found.length; k++) {
                const b = found[k];
                const j = b.userData;
                if (j <= i || !canInteract(a, b)) continue;
                const bb = b.bbox;
                if (bb.minX > box.maxX || box.minX > bb.maxX || bb.minY > box.maxY || box.minY > bb.maxY) continue;
                if (nc === candA.length) {
                    const na = new Uint32Array(2 * nc), nb = new Uint32Array(2 * nc);
                    na.set(candA);
                    nb.set(candB);
                    candA = na;
                    candB = nb;
                }
                candA[nc] = i;
                candB[nc] = j;
                nc++;
            }
        }
        t2 = performance.now();
        for (let k = 0; k < nc; k++)
            if (system.checkCollision(bodies[candA[k]], bodies[candB[k]])) contacts.push(candA[k], candB[k]);
    } else {
        system.checkAll((r) => {
            const i = r.a.userData, j = r.b.userData;
            if (i < j) contacts.push(i, j);
            return false; // go on
        });
        t2 = performance.now();
    }
    const t3 = performance.now();
    const nContacts = contacts.length / 2;
    f32(t1 - t0);
    f32(mode === 'pairs' ? t2 - t1 : t3 - t1);
    f32(mode === 'pairs' ? t3 - t2 : 0);
    u32(nc);
    u32(nContacts);
    const buf = Buffer.alloc(8 * nContacts);
    for (let k = 0; k < contacts.length; k++) buf.writeUInt32LE(contacts[k], 4 * k);
    out.push(buf);
    if (f >= warmup) {
        times.update.push(t1 - t0);
        times.broad.push(mode === 'pairs' ? t2 - t1 : t3 - t1);
        times.narrow.push(mode === 'pairs' ? t3 - t2 : 0);
        times.total.push(t3 - t0);
        times.candidates.push(nc);
        times.contacts.push(nContacts);
    }
}
writeFileSync(args[1], Buffer.concat(out));

const median = (v) => {
    const s = [...v].sort((a, b) => a - b);
    const n = s.length;
    return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
console.log(
    `detect-collisions (${mode}), ${count} shapes, median of ${times.total.length} frames: ` +
        `update ${median(times.update).toFixed(3)} ms, broadphase ${median(times.broad).toFixed(3)} ms, ` +
        `narrowphase ${median(times.narrow).toFixed(3)} ms, total ${median(times.total).toFixed(3)} ms, ` +
        `candidates ${median(times.candidates)}, contacts ${median(times.contacts)}`
);
