// Display-only simplification of triangle meshes by vertex clustering
// (J. Rossignac and P. Borrel, "Multi-resolution 3D approximations for
// rendering complex scenes", Modeling in Computer Graphics, 1993): the
// mesh's bounding box is cut into cubic cells, the vertices of each cell
// merge into one at their mean, and the triangles whose corners fall in
// fewer than three cells vanish. The page uses it at quality=low (software
// WebGL), where the time to draw a frame grows with the triangles drawn;
// the physics never sees it. See docs/VIEWER.md, "Cost and latency".

// clusterMesh returns the mesh (positions x, y, z per vertex; indices three
// per triangle) clustered on a grid of cubic cells whose side is the
// largest side of the bounding box divided by cells. Triangles keep their
// orientation; one with the same three merged corners in the same turning
// order as an earlier one is dropped.
export function clusterMesh(positions, indices, cells) {
  const n = positions.length / 3;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      const x = positions[3 * i + k];
      if (x < lo[k]) lo[k] = x;
      if (x > hi[k]) hi[k] = x;
    }
  }
  const h = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / cells;
  if (!(h > 0)) return { positions, indices };
  const side = cells + 1;
  const cellIndex = new Map(); // cell key → merged vertex
  const sums = [], counts = [];
  const remap = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let key = 0;
    for (let k = 2; k >= 0; k--) key = key * side + Math.min(cells, Math.floor((positions[3 * i + k] - lo[k]) / h));
    let v = cellIndex.get(key);
    if (v === undefined) {
      v = counts.length;
      cellIndex.set(key, v);
      sums.push(0, 0, 0);
      counts.push(0);
    }
    remap[i] = v;
    counts[v]++;
    for (let k = 0; k < 3; k++) sums[3 * v + k] += positions[3 * i + k];
  }
  const m = counts.length;
  const out = new Float32Array(3 * m);
  for (let v = 0; v < m; v++) for (let k = 0; k < 3; k++) out[3 * v + k] = sums[3 * v + k] / counts[v];
  const seen = new Set(), tris = [];
  for (let t = 0; t + 2 < indices.length; t += 3) {
    let a = remap[indices[t]], b = remap[indices[t + 1]], c = remap[indices[t + 2]];
    if (a === b || b === c || a === c) continue;
    // The rotation that puts the smallest corner first names the triangle
    // with its orientation.
    while (a > b || a > c) [a, b, c] = [b, c, a];
    const key = (a * m + b) * m + c;
    if (seen.has(key)) continue;
    seen.add(key);
    tris.push(a, b, c);
  }
  return { positions: out, indices: tris };
}

// simplifyMesh returns the mesh unchanged when it has at most budget
// triangles, else the finest clustering (grids of 64 cells a side and
// coarser, by factors of 3/4, down to 4) that has at most budget triangles.
export function simplifyMesh(positions, indices, budget) {
  if (indices.length / 3 <= budget) return { positions, indices };
  let r = { positions, indices };
  for (let cells = 64; cells >= 4; cells = Math.floor(cells * 0.75)) {
    r = clusterMesh(positions, indices, cells);
    if (r.indices.length / 3 <= budget) break;
  }
  return r;
}
