// Stiction viewer: plays back a run (GET api/run) or follows a live one
// (server-sent events, GET api/events). Z is up, quaternions arrive as
// (w, x, y, z). See docs/VIEWER.md.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { startLive } from './live.js';
import { simplifyMesh } from './simplify.js';

const $ = (id) => document.getElementById(id);
const view = $('view');

// Quality: on a GPU, antialiasing at the device's pixel ratio; with a
// software WebGL (SwiftShader, llvmpipe: the CPU draws), neither, since
// there one frame of the iiwa with the Allegro hand (102 000 triangles) at
// 1280×573 costs about 300 ms with 4× antialiasing, 100 ms without and
// 60 ms at half the pixel ratio (docs/VIEWER.md, "Cost and latency").
// ?quality=high or ?quality=low forces either.
const quality = new URLSearchParams(location.search).get('quality') || (softwareGL() ? 'low' : 'high');
// At quality=low the panels are opaque: the page's compositor (software,
// with a software WebGL) then draws no picture under them.
document.documentElement.classList.toggle('low', quality === 'low');
const renderer = new THREE.WebGLRenderer({ antialias: quality !== 'low', preserveDrawingBuffer: true });
renderer.setPixelRatio(quality === 'low' ? window.devicePixelRatio / 2 : window.devicePixelRatio);
const gl = renderer.getContext();
const webgl2 = typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext;
let fence = null, fenceT = 0;

// softwareGL reports whether WebGL draws on the CPU.
function softwareGL() {
  const g = document.createElement('canvas').getContext('webgl2') || document.createElement('canvas').getContext('webgl');
  if (!g) return false;
  const ext = g.getExtension('WEBGL_debug_renderer_info');
  const name = String(g.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : g.RENDERER));
  const lose = g.getExtension('WEBGL_lose_context');
  if (lose) lose.loseContext();
  return /swiftshader|llvmpipe|softpipe|software/i.test(name);
}

// gpuReady reports whether the GPU has finished the last frame (WebGL 2's
// fence), so that the live page never queues a frame behind one still
// being drawn: it draws the latest state once the GPU is free.
function gpuReady() {
  if (!fence) return true;
  if (gl.getSyncParameter(fence, gl.SYNC_STATUS) !== gl.SIGNALED) return false;
  gl.deleteSync(fence);
  fence = null;
  gpuDone = performance.now();
  gpuMs = timed('gpu', fenceT);
  for (const f of gpuWaiters.splice(0)) f();
  return true;
}
let gpuDone = 0, gpuMs = 0;

// gpuRested reports whether the GPU has been idle for as long as it took
// to draw the last frame (at most 250 ms, so that a one-off stall such as
// compiling the shaders does not hold the page back): a page that draws at
// most so often leaves at least half of a software renderer's CPU to the
// simulation and the transport (a GPU that draws a frame in 2 ms is not
// held back).
function gpuRested() { return gpuReady() && performance.now() - gpuDone >= Math.min(gpuMs, 250); }

// whenDrawn calls f once the GPU has finished the last frame rendered.
const gpuWaiters = [];
function whenDrawn(f) {
  if (fence) gpuWaiters.push(f);
  else f();
}
view.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x1d2127);
const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 500);
camera.up.set(0, 0, 1);
const controls = new OrbitControls(camera, renderer.domElement);
controls.addEventListener('change', render);
scene.add(new THREE.HemisphereLight(0xeef4ff, 0x404048, 2.0));
const sun = new THREE.DirectionalLight(0xffffff, 2.0);
sun.position.set(3, -4, 8);
scene.add(sun);

const bodies = new THREE.Group();
bodies.name = 'bodies';
scene.add(bodies);
const overlay = new THREE.Group();
scene.add(overlay);

const st = {
  run: null, frame: 0, time: 0, playing: false, speed: 1, follow: true,
  forceBase: 0, maxContacts: 0, tCol: [], okCol: [],
};
let contactPoints = null, forceLines = null, forceHeads = null;

// Page timings in ms by stage (the last 1000 of each), for latency
// measurements: window.stiction.timing() gives their medians and maxima.
const timings = new Map();
function timed(name, t0) { return note(name, performance.now() - t0); }
function note(name, ms) {
  let a = timings.get(name);
  if (!a) timings.set(name, (a = []));
  a.push(ms);
  if (a.length > 1000) a.shift();
  return ms;
}
function timingSummary() {
  const out = {};
  for (const [name, a] of timings) {
    const s = [...a].sort((x, y) => x - y);
    out[name] = { n: s.length, median: s[s.length >> 1], p90: s[Math.floor(0.9 * (s.length - 1))], max: s[s.length - 1] };
  }
  return out;
}

// ---- shapes -------------------------------------------------------------

const palette = [0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f];

function toQuat(q) { return new THREE.Quaternion(q[1], q[2], q[3], q[0]); }
function toVec(p) { return new THREE.Vector3(p[0], p[1], p[2]); }

// LOW_MESH_TRIANGLES is the most triangles a visual mesh is drawn with at
// quality=low: a finer one is simplified by vertex clustering (simplify.js),
// for display only. On SwiftShader the iiwa with the Allegro hand (102 000
// triangles) then draws with 7 320 (at most 1000 a mesh: 24 396; the
// software renderer's time a frame goes with the triangles, even at a
// tenth of the pixels: docs/VIEWER.md, "Cost and latency"); quality=high
// draws every triangle.
const LOW_MESH_TRIANGLES = 250;

// meshGeometry turns a scene.json mesh into a geometry: smooth normals for
// visual meshes (simplified at quality=low), flat ones (unshared vertices)
// for convex hulls.
const meshCache = new Map();
function meshGeometry(meshes, i, flat) {
  const key = i + (flat ? 'f' : 's');
  if (meshCache.has(key)) return meshCache.get(key);
  let m = meshes[i];
  if (!flat && quality === 'low') {
    const t0 = performance.now();
    m = simplifyMesh(m.positions, m.indices, LOW_MESH_TRIANGLES);
    timed('simplify', t0);
  }
  let geo = new THREE.BufferGeometry();
  geo.setAttribute('position', new THREE.BufferAttribute(new Float32Array(m.positions), 3));
  geo.setIndex(m.indices);
  if (flat) geo = geo.toNonIndexed();
  geo.computeVertexNormals();
  meshCache.set(key, geo);
  return geo;
}

// shapeGeometry returns the mesh geometry of a shape in its own frame.
function shapeGeometry(g, meshes) {
  if (g.mesh !== undefined && meshes && meshes[g.mesh]) return meshGeometry(meshes, g.mesh, g.shape === 'convexhull');
  switch (g.shape) {
    case 'ellipsoid': return new THREE.SphereGeometry(1, 24, 16).scale(g.radii[0], g.radii[1], g.radii[2]);
    case 'sphere': return new THREE.SphereGeometry(g.radius, 24, 16);
    case 'box': return new THREE.BoxGeometry(2 * g.half_extents[0], 2 * g.half_extents[1], 2 * g.half_extents[2]);
    case 'cylinder': return new THREE.CylinderGeometry(g.radius, g.radius, 2 * g.half_length, 24).rotateX(Math.PI / 2);
    case 'capsule': return new THREE.CapsuleGeometry(g.radius, 2 * g.half_length, 8, 16).rotateX(Math.PI / 2);
  }
  return null;
}

// surfaceMaterial returns the material of a surface: physically based
// (roughness, metalness) at quality=high; Lambertian, without them, at
// quality=low, where its per-pixel shading costs SwiftShader less (on the
// grasp page, 29 instead of 44 ms a frame: docs/VIEWER.md, "Cost and
// latency").
function surfaceMaterial(p) {
  if (quality !== 'low') return new THREE.MeshStandardMaterial(p);
  const { roughness, metalness, ...rest } = p;
  return new THREE.MeshLambertMaterial(rest);
}

// planeMesh draws a half-space as a finite square of side size, centred on
// the projection of the point centre onto its boundary.
function planeMesh(world, centre, size) {
  const inv = world.clone().invert();
  const c = centre.clone().applyMatrix4(inv);
  const geo = new THREE.PlaneGeometry(size, size).translate(c.x, c.y, 0);
  const normal = new THREE.Vector3(0, 0, 1).applyQuaternion(new THREE.Quaternion().setFromRotationMatrix(world));
  const ground = normal.z > 0.9;
  const mat = surfaceMaterial({
    color: ground ? 0x8a8f98 : 0x6a7c94, roughness: 0.95, side: THREE.FrontSide,
    transparent: !ground, opacity: ground ? 1 : 0.25, depthWrite: ground,
  });
  const mesh = new THREE.Mesh(geo, mat);
  if (ground) {
    const grid = new THREE.GridHelper(size, Math.round(size / 0.1), 0x5a606a, 0x737882);
    grid.rotateX(Math.PI / 2);
    grid.position.set(c.x, c.y, 0.0005);
    mesh.add(grid);
  }
  return mesh;
}

// sceneBounds returns the centre and radius of the non-fixed bodies' initial
// positions.
function sceneBounds(sc) {
  const box = new THREE.Box3();
  for (const b of sc.bodies) if (!b.fixed) box.expandByPoint(toVec(b.pose.position));
  if (box.isEmpty()) box.expandByPoint(new THREE.Vector3());
  const centre = box.getCenter(new THREE.Vector3());
  const radius = Math.max(0.3, box.getSize(new THREE.Vector3()).length() / 2 + 0.2);
  return { centre, radius };
}

function buildScene(sc) {
  const { centre, radius } = sceneBounds(sc);
  sc.bodies.forEach((b, i) => {
    const group = new THREE.Group();
    group.name = b.name;
    group.position.copy(toVec(b.pose.position));
    group.quaternion.copy(toQuat(b.pose.quaternion));
    group.updateMatrixWorld(true);
    const color = palette[i % palette.length];
    // A body's visuals are drawn instead of its collision shapes (the live
    // page's toggle shows the collision shapes instead).
    const hasVisuals = !!(b.visuals && b.visuals.length);
    const sets = [[hasVisuals ? b.visuals : b.geometries, hasVisuals ? 'visual' : 'both']];
    if (hasVisuals && st.collisionToo) sets.push([b.geometries, 'collision']);
    for (const [shapes, kind] of sets) for (const g of shapes) {
      const local = new THREE.Matrix4().compose(toVec(g.pose.position), toQuat(g.pose.quaternion), new THREE.Vector3(1, 1, 1));
      let mesh;
      if (g.shape === 'halfspace') {
        mesh = planeMesh(group.matrixWorld.clone().multiply(local), centre, Math.max(2, 3 * radius));
      } else {
        const geo = shapeGeometry(g, sc.meshes);
        if (!geo) continue;
        const c = g.color ? new THREE.Color(g.color[0], g.color[1], g.color[2]) : color;
        const opacity = g.color ? g.color[3] : 1;
        mesh = new THREE.Mesh(geo, surfaceMaterial({ color: c, roughness: 0.6, metalness: 0.05, transparent: opacity < 1, opacity }));
      }
      mesh.applyMatrix4(local);
      mesh.userData.kind = kind;
      mesh.userData.body = i;
      if (kind === 'collision') mesh.visible = false;
      group.add(mesh);
    }
    const axes = new THREE.AxesHelper(b.fixed ? 0.2 : 0.08);
    axes.name = 'frame';
    axes.visible = false;
    axes.material.depthTest = false;
    axes.renderOrder = 2;
    group.add(axes);
    bodies.add(group);
  });
  controls.target.copy(centre).setZ(Math.max(0, centre.z * 0.5));
  camera.position.copy(controls.target).add(new THREE.Vector3(1.2, -2.0, 1.3).multiplyScalar(radius * 0.85));
  camera.near = radius / 100;
  camera.far = radius * 100;
  controls.update();
}

// ---- contacts -----------------------------------------------------------

function ensureContactCapacity(n) {
  if (contactPoints && n <= st.maxContacts) return;
  st.maxContacts = Math.max(n, 2 * st.maxContacts, 64);
  for (const o of [contactPoints, forceLines, forceHeads]) if (o) { overlay.remove(o); o.geometry.dispose(); }
  const pg = new THREE.BufferGeometry();
  pg.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * st.maxContacts), 3));
  contactPoints = new THREE.Points(pg, new THREE.PointsMaterial({ color: 0xffe14d, size: 5, sizeAttenuation: false, depthTest: false }));
  contactPoints.renderOrder = 3;
  const lg = new THREE.BufferGeometry();
  lg.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6 * st.maxContacts), 3));
  forceLines = new THREE.LineSegments(lg, new THREE.LineBasicMaterial({ color: 0xff4d6a, depthTest: false }));
  forceLines.renderOrder = 3;
  forceHeads = new THREE.InstancedMesh(new THREE.ConeGeometry(1, 1, 10).translate(0, -0.5, 0),
    new THREE.MeshBasicMaterial({ color: 0xff4d6a, depthTest: false }), st.maxContacts);
  forceHeads.renderOrder = 3;
  for (const o of [contactPoints, forceLines, forceHeads]) { o.frustumCulled = false; overlay.add(o); }
  applyToggles();
}

// forceBase picks the force scale (m/N) that draws the median contact force
// of the frame as a 10 cm arrow.
function pickForceBase(contacts) {
  const mags = contacts.map((c) => Math.hypot(c[6], c[7], c[8])).filter((m) => m > 0).sort((a, b) => a - b);
  if (mags.length) st.forceBase = 0.1 / mags[mags.length >> 1];
}

const up = new THREE.Vector3(0, 1, 0), tmpM = new THREE.Matrix4(), tmpQ = new THREE.Quaternion();

function drawContacts(contacts) {
  ensureContactCapacity(contacts.length);
  if (!st.forceBase) pickForceBase(contacts);
  const scale = st.forceBase * Math.pow(10, Number($('force-scale').value));
  const pp = contactPoints.geometry.attributes.position, lp = forceLines.geometry.attributes.position;
  contacts.forEach((c, i) => {
    pp.setXYZ(i, c[0], c[1], c[2]);
    const f = new THREE.Vector3(c[6], c[7], c[8]).multiplyScalar(scale);
    const len = f.length();
    const tip = new THREE.Vector3(c[0], c[1], c[2]).add(f);
    lp.setXYZ(2 * i, c[0], c[1], c[2]);
    lp.setXYZ(2 * i + 1, tip.x, tip.y, tip.z);
    const h = Math.min(0.3 * len, 0.03);
    tmpQ.setFromUnitVectors(up, len > 0 ? f.clone().divideScalar(len) : up);
    tmpM.compose(tip, tmpQ, new THREE.Vector3(h * 0.35, h, h * 0.35));
    forceHeads.setMatrixAt(i, tmpM);
  });
  pp.needsUpdate = lp.needsUpdate = true;
  forceHeads.instanceMatrix.needsUpdate = true;
  contactPoints.geometry.setDrawRange(0, contacts.length);
  forceLines.geometry.setDrawRange(0, 2 * contacts.length);
  forceHeads.count = contacts.length;
}

function applyToggles() {
  if (contactPoints) contactPoints.visible = $('show-points').checked;
  if (forceLines) forceLines.visible = forceHeads.visible = $('show-forces').checked;
  for (const g of bodies.children) g.getObjectByName('frame').visible = $('show-frames').checked;
}

// ---- frames and statistics ----------------------------------------------

// setFrame shows frame i: the bodies, contacts and picture, and unless
// panels is false (the live page refreshes its text at 10 Hz) the panel
// and charts.
function setFrame(i, panels = true) {
  const frames = st.run.frames;
  if (!frames.length) return;
  i = Math.max(0, Math.min(frames.length - 1, i | 0));
  st.frame = i;
  const fr = frames[i];
  const t0 = performance.now();
  st.run.scene.bodies.forEach((b, k) => {
    if (b.fixed) return;
    const p = fr.poses[k], g = bodies.children[k];
    g.position.set(p[0], p[1], p[2]);
    g.quaternion.set(p[4], p[5], p[6], p[3]);
  });
  drawContacts(fr.contacts || []);
  timed('poses+contacts', t0);
  if (panels) showFramePanel(i);
  render();
}

// showFramePanel shows frame i's constraints, time, statistics and charts.
function showFramePanel(i) {
  const t0 = performance.now(), fr = st.run.frames[i];
  if (!fr) return;
  showConstraints(fr.constraints || []);
  if (Number($('timeline').value) !== i) $('timeline').value = i;
  setText($('time'), fr.t.toFixed(3) + ' s');
  showStats(fr.t);
  timed('panel+charts', t0);
}

// showConstraints lists the constraints that acted in the frame's step:
// green while active, orange and bold at an effort limit (saturated).
function showConstraints(list) {
  const box = $('constraints');
  if (!list.length && !box.firstChild) return;
  box.replaceChildren(...list.map((c) => {
    const row = document.createElement('div');
    row.className = c.state;
    row.title = c.type + ', ' + c.state;
    const name = document.createElement('span');
    name.textContent = c.name + (c.state === 'saturated' ? ' ■' : '');
    const force = document.createElement('span');
    force.textContent = fmt(c.force, 3);
    row.append(name, force);
    return row;
  }));
}

// stepIndex returns the index of the step row whose time is t, or −1.
function stepIndex(t) {
  const ts = st.tCol;
  let lo = 0, hi = ts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid] < t - 1e-9) lo = mid + 1; else hi = mid - 1;
  }
  return lo < ts.length && Math.abs(ts[lo] - t) < 1e-9 ? lo : -1;
}

function col(name) { return st.run.steps.columns.indexOf(name); }

// setText sets an element's text only if it changes (a change costs the
// page a layout and a paint).
function setText(el, s) { if (el.textContent !== s) el.textContent = s; }

function fmt(x, digits) { return x === null || x === undefined ? '–' : Number(x).toPrecision(digits); }

function showStats(t) {
  const k = stepIndex(t), row = k >= 0 ? st.run.steps.rows[k] : null;
  const get = (name) => (row ? row[col(name)] : null);
  setText($('s-t'), t.toFixed(3) + ' s');
  setText($('s-step'), k >= 0 ? String(k + 1) : '–');
  setText($('s-iter'), row ? String(get('iterations')) : '–');
  setText($('s-em'), fmt(get('momentum_error'), 3));
  setText($('s-contacts'), row ? String(get('contacts')) : '–');
  setText($('s-energy'), row ? fmt(get('kinetic_energy') + get('potential_energy'), 5) + ' J' : '–');
  drawCharts(t);
}

function drawChart(id, name, t, log) {
  const cv = $(id), ctx = cv.getContext('2d'), W = cv.width, H = cv.height;
  ctx.clearRect(0, 0, W, H);
  const j = col(name), rows = st.run.steps.rows;
  if (j < 0 || !rows.length) return;
  const f = (v) => (log ? (v > 0 ? Math.log10(v) : null) : v);
  let lo = Infinity, hi = -Infinity;
  for (const r of rows) { const v = f(r[j]); if (v !== null && isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } }
  if (!isFinite(lo)) return;
  if (hi - lo < 1e-12) { hi += 0.5; lo -= 0.5; }
  const t0 = st.tCol[0], t1 = Math.max(st.tCol[st.tCol.length - 1], t0 + 1e-9);
  const x = (tt) => 2 + (W - 4) * (tt - t0) / (t1 - t0), y = (v) => H - 3 - (H - 6) * (v - lo) / (hi - lo);
  ctx.strokeStyle = '#7fb3ff';
  ctx.beginPath();
  let pen = false;
  rows.forEach((r, i) => {
    const v = f(r[j]);
    if (v === null || !isFinite(v)) { pen = false; return; }
    if (pen) ctx.lineTo(x(st.tCol[i]), y(v)); else ctx.moveTo(x(st.tCol[i]), y(v));
    pen = true;
  });
  ctx.stroke();
  ctx.fillStyle = '#ff5a36';
  rows.forEach((r, i) => { if (st.okCol[i] === false) ctx.fillRect(x(st.tCol[i]) - 1.5, 0, 3, H); });
  ctx.fillStyle = '#99a';
  ctx.font = '10px system-ui';
  ctx.fillText('max ' + (log ? '1e' + Math.round(hi) : String(+hi.toPrecision(3))), 4, 10);
  ctx.strokeStyle = '#ffcc33';
  ctx.beginPath();
  ctx.moveTo(x(t), 0);
  ctx.lineTo(x(t), H);
  ctx.stroke();
}

function drawCharts(t) {
  drawChart('c-iter', 'iterations', t, false);
  drawChart('c-em', 'momentum_error', t, true);
  drawChart('c-contacts', 'contacts', t, false);
}

// ---- playback -------------------------------------------------------------

function frameAt(t) {
  const frames = st.run.frames;
  let lo = 0, hi = frames.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (frames[mid].t <= t + 1e-9) lo = mid; else hi = mid - 1;
  }
  return lo;
}

function setPlaying(on) {
  const frames = st.run.frames;
  if (on && st.frame >= frames.length - 1 && !(st.run.live && !st.run.done)) {
    st.time = frames.length ? frames[0].t : 0;
  }
  st.playing = on;
  $('play').textContent = on ? '❚❚' : '▶';
}

let last = performance.now();
function tick(now) {
  timed('raf interval', last);
  gpuReady();
  const dtWall = Math.min(0.1, (now - last) / 1000);
  last = now;
  if (st.run && st.playing && st.run.frames.length) {
    const frames = st.run.frames;
    st.time += dtWall * st.speed;
    const end = frames[frames.length - 1].t;
    if (st.time >= end) {
      st.time = end;
      if (!st.run.live || st.run.done) setPlaying(false);
    }
    const i = frameAt(st.time);
    if (i !== st.frame) setFrame(i);
  }
  requestAnimationFrame(tick);
}

function render() {
  const t0 = performance.now();
  renderer.render(scene, camera);
  timed('render', t0);
  if (!webgl2) return;
  if (fence) gl.deleteSync(fence);
  fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  gl.flush();
  fenceT = performance.now();
}

function resize() {
  const w = Math.max(1, view.clientWidth), h = Math.max(1, view.clientHeight);
  renderer.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
  render();
}

function wireControls() {
  $('play').addEventListener('click', () => setPlaying(!st.playing));
  $('speed').addEventListener('change', (e) => { st.speed = Number(e.target.value); });
  $('timeline').addEventListener('input', (e) => {
    setPlaying(false);
    setFrame(Number(e.target.value));
    st.time = st.run.frames[st.frame].t;
    st.follow = st.frame === st.run.frames.length - 1;
  });
  for (const id of ['show-points', 'show-forces', 'show-frames']) $(id).addEventListener('change', () => { applyToggles(); render(); });
  $('force-scale').addEventListener('input', () => setFrame(st.frame));
  window.addEventListener('keydown', (e) => {
    if (e.code === 'Space' && e.target.tagName !== 'INPUT') { e.preventDefault(); setPlaying(!st.playing); }
  });
  window.addEventListener('resize', resize);
}

// ---- data -------------------------------------------------------------------

function addSteps(rows, ok) {
  const j = col('t');
  for (const r of rows) { st.run.steps.rows.push(r); st.tCol.push(r[j]); st.okCol.push(ok !== false); }
}

function addFrames(frames) {
  st.run.frames.push(...frames);
  $('timeline').max = st.run.frames.length - 1;
  if (st.follow) { st.time = st.run.frames[st.run.frames.length - 1].t; setFrame(st.run.frames.length - 1); }
}

function stream() {
  const r = st.run;
  const es = new EventSource(`api/events?frames=${r.frames.length}&steps=${r.steps.rows.length}`);
  es.addEventListener('steps', (e) => addSteps(JSON.parse(e.data)));
  es.addEventListener('frames', (e) => addFrames(JSON.parse(e.data)));
  es.addEventListener('done', () => { es.close(); r.done = true; $('status').textContent = 'live run finished'; });
  $('status').textContent = 'live';
}

// clearScene removes every body (before a live session opens a model).
function clearScene() {
  for (const g of [...bodies.children]) bodies.remove(g);
  meshCache.clear();
  st.forceBase = 0;
}

async function main() {
  wireControls();
  resize();
  const lr = await fetch('api/live');
  const info = lr.ok ? await lr.json() : { live: false };
  if (info.live) {
    await startLive({ info, timed, note, gpuReady, gpuRested, whenDrawn, st, THREE, scene, camera, renderer, controls, bodies, overlay, view, $, render, setFrame, showFramePanel, addSteps, addFrames, buildScene, clearScene, setPlaying, applyToggles });
    window.stiction.ready = true;
    requestAnimationFrame(tick);
    return;
  }
  const resp = await fetch('api/run');
  if (!resp.ok) throw new Error(`api/run: HTTP ${resp.status}`);
  const run = await resp.json();
  const rows = run.steps.rows;
  run.steps.rows = [];
  st.run = run;
  addSteps(rows);
  $('title').textContent = run.scene.scene || 'Stiction';
  document.title = `Stiction – ${run.scene.scene}`;
  buildScene(run.scene);
  $('timeline').max = Math.max(0, run.frames.length - 1);
  st.follow = run.live;
  setFrame(run.live ? run.frames.length - 1 : 0);
  if (run.live && !run.done) stream();
  else $('status').textContent = `${run.frames.length} frames, ${run.steps.rows.length} steps`;
  window.stiction.ready = true;
  requestAnimationFrame(tick);
}

// Test and scripting hooks.
window.stiction = {
  ready: false,
  error: null,
  bodyCount: () => bodies.children.length,
  frameCount: () => (st.run ? st.run.frames.length : 0),
  frame: () => st.frame,
  playing: () => st.playing,
  setFrame: (i) => { setPlaying(false); setFrame(i); return st.frame; },
  poses: () => bodies.children.map((g) => [g.position.x, g.position.y, g.position.z, g.quaternion.w, g.quaternion.x, g.quaternion.y, g.quaternion.z]),
  meshCount: () => { let n = 0; bodies.traverse((o) => { if (o.isMesh) n++; }); return n; },
  timing: timingSummary,
  resetTiming: () => timings.clear(),
  renderInfo: () => ({ ...renderer.info.render, quality, pixelRatio: renderer.getPixelRatio(), width: renderer.domElement.width, height: renderer.domElement.height }),
};

main().catch((err) => {
  $('status').textContent = 'error: ' + err.message;
  window.stiction.error = String(err.message || err);
  console.error(err);
});
