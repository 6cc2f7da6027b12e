// Stiction viewer, interactive session: the page drives a simulation that
// runs in the Go process over a WebSocket (api/ws). Messages and commands
// are described in docs/VIEWER.md.

const MAX_FRAMES = 20000; // frames kept for scrubbing; older ones are dropped
const PANEL_MS = 100; // period of the text panels and charts while running
const HOLD_MS = 100; // after a command, at most so long without drawing until its answer arrives

export async function startLive(app) {
  const { st, timed, note, gpuReady, gpuRested, whenDrawn, THREE, camera, renderer, controls, bodies, overlay, $, render } = app;
  const L = {
    ws: null, hello: null, last: null, errors: [], messages: 0, selected: -1, control: false,
    latency: [], arrival: [], shown: [], panelT: -Infinity, sent: [], pending: null, recorded: null, drag: null, lastSend: 0, frames: 0,
  };
  $('live').hidden = false;
  $('controls').classList.add('live');
  st.collisionToo = true;

  // ---- connection ---------------------------------------------------------

  const token = new URLSearchParams(location.search).get('token') || '';
  function connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/ws?token=${encodeURIComponent(token)}`);
    L.ws = ws;
    ws.onmessage = (e) => {
      const t0 = performance.now();
      const m = JSON.parse(e.data);
      if (m.type === 'frame') {
        timed('parse', t0);
        note('age on arrival', t0 - (m.built - performance.timeOrigin)); // the server and the page share the host's clock
      }
      if (m.type === 'pong') timed('ping rtt', m.id); // for scripts that send pings with id = performance.now()
      onMessage(m);
      if (m.type === 'frame') timed('message', t0);
    };
    ws.onclose = () => { $('status').textContent = 'disconnected'; };
    return new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error('WebSocket connection failed'));
    });
  }

  function send(cmd) {
    if (!L.ws || L.ws.readyState !== WebSocket.OPEN) return false;
    const msg = typeof cmd === 'string' ? cmd : JSON.stringify(cmd);
    L.ws.send(msg);
    if (msg !== '{"type":"ack"}') {
      L.sent.push(msg);
      L.lastSend = performance.now();
      // Until the frame that answers this command arrives (one with more
      // commands served than the last frame received), the page draws
      // nothing: a draw started now would hold the page's thread (software
      // WebGL: the whole frame) when that frame arrives.
      if (!L.await && cmd.type !== 'ping') L.await = { served: L.last ? L.last.served : -1, since: L.lastSend };
    }
    return true;
  }

  function onMessage(m) {
    L.messages++;
    switch (m.type) {
      case 'hello': onHello(m); break;
      case 'frame': onFrame(m); break;
      case 'reset': clearHistory(); break;
      case 'error':
        L.await = null;
        L.errors.push(m);
        $('live-msg').textContent = 'error: ' + m.message;
        $('live-msg').className = 'bad';
        break;
      case 'recorded':
        L.recorded = m.dir;
        $('live-msg').textContent = 'recorded to ' + m.dir;
        $('live-msg').className = '';
        break;
    }
  }

  // ---- model ----------------------------------------------------------------

  function clearHistory() {
    st.run.frames = [];
    st.run.steps.rows = [];
    st.tCol = [];
    st.okCol = [];
    st.follow = true;
  }

  function onHello(h) {
    L.hello = h;
    L.last = null;
    L.control = h.control;
    L.selected = -1;
    app.clearScene();
    st.run = { live: true, done: false, scene: h.scene, frames: [], steps: { columns: h.columns, rows: [] } };
    clearHistory();
    app.buildScene(h.scene);
    buildMarkers(h);
    buildActuators(h);
    buildJoints(h);
    fillSelect($('live-model'), h.models, h.model);
    fillSelect($('live-key'), [''].concat(h.keyframes), '', (k) => k || 'initial state');
    $('title').textContent = h.scene.scene || h.model;
    document.title = `Stiction – ${h.model} (live)`;
    for (const b of document.querySelectorAll('#live button, #live select, #live input')) b.disabled = !h.control;
    $('status').textContent = h.control ? 'live session' : 'live session (watching: control needs the token)';
    showSelection();
    applyLiveToggles();
  }

  function fillSelect(sel, items, value, label) {
    sel.replaceChildren(...items.map((it) => {
      const o = document.createElement('option');
      o.value = it;
      o.textContent = label ? label(it) : it;
      o.selected = it === value;
      return o;
    }));
  }

  // ---- frames ---------------------------------------------------------------

  // onFrame keeps the frame for scrubbing; drawing waits for the next
  // animation frame, so that a page slower than the stream draws only the
  // latest state instead of falling behind.
  function onFrame(m) {
    noteArrival(m);
    let answer = false;
    if (L.await && m.served > L.await.served) {
      note('command to answer', performance.now() - L.await.since);
      L.await = null;
      answer = true;
      L.answer = true;
    }
    send('{"type":"ack"}'); // flow control: the server sends at most 2 frames ahead of these
    L.last = m;
    L.frames++;
    const fr = m.frame;
    const rows = st.run.frames;
    const t = fr.t;
    // A frame at the time of the previous one (a joint edit) replaces it.
    if (rows.length && rows[rows.length - 1].t >= t) {
      while (rows.length && rows[rows.length - 1].t >= t) rows.pop();
      while (st.tCol.length && st.tCol[st.tCol.length - 1] >= t) { st.tCol.pop(); st.okCol.pop(); st.run.steps.rows.pop(); }
    }
    if (m.stats) app.addSteps([m.stats], m.ok && !m.failed);
    rows.push(fr);
    if (rows.length > MAX_FRAMES) rows.splice(0, rows.length - MAX_FRAMES);
    if (st.tCol.length > MAX_FRAMES) { const k = st.tCol.length - MAX_FRAMES; st.tCol.splice(0, k); st.okCol.splice(0, k); st.run.steps.rows.splice(0, k); }
    if (!m.paused) st.follow = true;
    if (!L.dirty) { L.dirty = performance.now(); requestAnimationFrame(draw); }
    // The answer to a command is drawn at once (the GPU is idle: nothing
    // was drawn while waiting for it) rather than at the next animation
    // frame.
    if (answer && gpuReady()) draw();
  }

  function draw() {
    if (!L.dirty) return; // drawn already
    // Wait while the GPU draws the last frame and, unless the frame answers
    // a command or a slider move waits for its effect, until it has rested
    // as long: a frame in the software renderer's pipeline when a command's
    // answer arrives delays it (in alternated runs at load 11-17, grasp
    // slider to shown, median of 5 moves: 52, 111, 90, 64, 67 ms when every
    // frame within 500 ms of a command was drawn as soon as the GPU was
    // free; 54, 70, 45, 62, 59 ms so).
    const now = performance.now();
    if (L.await && now - L.await.since < HOLD_MS) { requestAnimationFrame(draw); return; }
    L.await = null;
    const urgent = L.answer || L.pending !== null;
    if (!(urgent ? gpuReady() : gpuRested())) { requestAnimationFrame(draw); return; }
    const t0 = performance.now();
    timed('draw wait', L.dirty);
    L.dirty = false;
    const m = L.last;
    if (!m || m.frame.poses.length !== L.hello.bodies.length) return;
    // The text panels and charts follow at most every PANEL_MS while
    // running (their layout and painting cost more than the 3D view on a
    // loaded machine); the 3D view draws every frame. The answer to a
    // command, and any frame while a slider move waits for its effect, is
    // drawn alone: its panels follow once the GPU has finished it, so that
    // the browser's next frame carries the picture without the panels'
    // layout and painting.
    const panels = m.paused || L.pending !== null || !(t0 - L.panelT < PANEL_MS);
    const alone = L.answer || L.pending !== null;
    L.answer = false;
    drawLive(m);
    L.drawnStep = m.step;
    // On pausing, the force arrows are scaled anew to the frame's forces.
    if (m.paused && !L.wasPaused) st.forceBase = 0;
    L.wasPaused = m.paused;
    if (st.follow) {
      st.time = m.frame.t;
      app.setFrame(st.run.frames.length - 1, false);
    } else render();
    timed('draw', t0);
    notePending(m);
    if (panels) {
      L.panelT = t0;
      if (alone) whenDrawn(showPanels);
      else showPanels();
    }
  }

  // showPanels shows the last frame's clock, actuators, joints, sensors,
  // selected body, statistics and charts.
  function showPanels() {
    const m = L.last;
    if (!m || !L.hello || m.frame.poses.length !== L.hello.bodies.length) return;
    const t0 = performance.now();
    $('timeline').max = st.run.frames.length - 1;
    showClock(m);
    showActuators(m);
    showJoints(m);
    showSensors(m);
    showSelection();
    if (st.follow) {
      app.showFramePanel(st.frame);
      setText($('s-step'), String(m.step));
    }
    timed('live panels', t0);
  }

  // setText, setFlag and setSliderValue change an element only if its
  // text, flag or slider position would change: every change makes the
  // browser lay out and paint again (on a software-rendered page, in the
  // frame that shows the answer to a slider move).
  function setText(el, s) { if (el.textContent !== s) el.textContent = s; }
  function setFlag(el, name, on) { if (el[name] !== on) el[name] = on; }
  function setSliderValue(input, x) {
    if (Math.abs(Number(input.value) - x) >= Number(input.step) / 2) input.value = x;
  }

  function showClock(m) {
    setText($('live-clock'), `sim ${m.frame.t.toFixed(3)} s · wall ${m.wall.toFixed(3)} s · step ${m.step}`);
    setText($('live-pause'), m.paused ? '▶ resume' : '❚❚ pause');
    setFlag($('live-step'), 'disabled', !L.control || !m.paused);
    setText($('live-rec'), `● record (${m.recorded} steps)`);
    const ok = m.ok && !m.failed;
    setText($('live-conv'), ok ? 'converged' : `not converged (${m.failed || 1})`);
    $('live-conv').classList.toggle('ok', ok);
    $('live-conv').classList.toggle('bad', !ok);
  }

  // ---- actuators and joints -------------------------------------------------

  function range(a) {
    if (a.min < a.max) return [a.min, a.max];
    const e = a.effort > 0 ? a.effort : 1;
    return a.type === 'position' || a.type === 'pd' ? [-Math.PI, Math.PI] : [-e, e];
  }

  function buildActuators(h) {
    const box = $('live-acts');
    box.replaceChildren(...h.actuators.map((a, i) => {
      const [lo, hi] = range(a);
      const row = document.createElement('div');
      row.className = 'slider';
      row.innerHTML = `<span class="name"></span><input type="range"><span class="val"></span><span class="force"></span>`;
      row.querySelector('.name').textContent = a.name || `actuator ${i}`;
      row.title = `${a.type}, range ${lo} … ${hi}`;
      const input = row.querySelector('input');
      Object.assign(input, { min: lo, max: hi, step: (hi - lo) / 1000, value: Math.min(hi, Math.max(lo, 0)) });
      input.id = `act-${i}`;
      input.addEventListener('input', () => setControl(i, Number(input.value)));
      return row;
    }));
    $('live-acts-box').hidden = !h.actuators.length;
  }

  // setControl sends a slider's value. The slider's path is marked for
  // traces (stiction:slider, :arrived, :drawn, :shown; docs/VIEWER.md,
  // TestLiveLatencyTrace).
  function setControl(i, u) {
    performance.mark('stiction:slider');
    L.pending = { actuator: i, value: u, t0: performance.now() };
    send({ type: 'control', actuator: i, value: [u] });
  }

  // notePending measures, for the last slider move, the time until the
  // first frame that shows its effect (the actuator's applied input at the
  // new value) arrives (L.arrival) and is drawn (L.latency).
  function shows(m, p) {
    const u = m.input ? m.input[p.actuator] : null;
    return u !== null && u !== undefined && Math.abs(u - p.value) <= 1e-9 * Math.max(1, Math.abs(p.value)) && m.step > 0;
  }
  function noteArrival(m) {
    const p = L.pending;
    if (p && !p.arrived && shows(m, p)) {
      p.arrived = true;
      performance.mark('stiction:arrived');
      const now = performance.now();
      L.arrival.push(now - p.t0);
      // Where the time went: to the server building the frame, and from it
      // to the page (one clock: the server's and the page's are the host's).
      const built = m.built - performance.timeOrigin;
      note('slider to built', built - p.t0);
      note('built to arrival', now - built);
    }
  }
  function notePending(m) {
    const p = L.pending;
    if (p && shows(m, p)) {
      L.latency.push(performance.now() - p.t0); // called after setFrame's render
      performance.mark('stiction:drawn');
      whenDrawn(() => { performance.mark('stiction:shown'); L.shown.push(performance.now() - p.t0); });
      L.pending = null;
    }
  }

  function showActuators(m) {
    const rows = $('live-acts').children;
    for (let i = 0; i < rows.length; i++) {
      const f = m.force[i], sat = m.sat[i];
      setText(rows[i].querySelector('.val'), m.ctrl[i] === null ? 'scene' : Number(m.ctrl[i]).toPrecision(3));
      setText(rows[i].querySelector('.force'), f === null ? '–' : Number(f).toPrecision(3) + (sat ? ' ■' : ''));
      rows[i].classList.toggle('saturated', !!sat);
      const input = rows[i].querySelector('input');
      if (m.ctrl[i] !== null && document.activeElement !== input) setSliderValue(input, m.ctrl[i]);
    }
  }

  function buildJoints(h) {
    const box = $('live-joints');
    box.replaceChildren(...h.joints.map((j, i) => {
      const row = document.createElement('div');
      row.className = 'slider';
      row.innerHTML = `<span class="name"></span><input type="range"><span class="val"></span>`;
      row.querySelector('.name').textContent = j.name;
      const input = row.querySelector('input');
      input.id = `joint-${i}`;
      if (j.nq !== 1) { input.disabled = true; row.title = `${j.type} joint: ${j.nq} coordinates (not a slider)`; return row; }
      const lo = j.lower && j.upper && j.lower[0] < j.upper[0] ? j.lower[0] : (j.type === 'prismatic' ? -1 : -Math.PI);
      const hi = j.lower && j.upper && j.lower[0] < j.upper[0] ? j.upper[0] : (j.type === 'prismatic' ? 1 : Math.PI);
      Object.assign(input, { min: lo, max: hi, step: (hi - lo) / 1000 });
      input.addEventListener('input', () => send({ type: 'qpos', joint: i, value: [Number(input.value)] }));
      return row;
    }));
    $('live-joints-box').hidden = !h.joints.length;
  }

  function showJoints(m) {
    const rows = $('live-joints').children;
    let k = 0;
    L.hello.joints.forEach((j, i) => {
      const q = m.q.slice(k, k + j.nq);
      k += j.nq;
      const input = rows[i].querySelector('input');
      setText(rows[i].querySelector('.val'), j.nq === 1 ? q[0].toFixed(3) : j.type);
      if (j.nq === 1) {
        setFlag(input, 'disabled', !L.control || !m.paused);
        if (document.activeElement !== input) setSliderValue(input, q[0]);
      }
    });
  }

  // showSensors lists the sensors' values (when the toggle is on).
  function showSensors(m) {
    const box = $('live-sensors');
    if (box.hidden) return;
    const h = L.hello;
    if (!h.sensors.length) { box.textContent = 'the model has no sensors'; return; }
    let k = 0;
    box.replaceChildren(...h.sensors.map((name, i) => {
      const vals = m.sensors.slice(k, k + h.sensor_dims[i]);
      k += h.sensor_dims[i];
      const row = document.createElement('div');
      row.textContent = `${name}: ${vals.map((x) => (x === null ? '–' : Number(x).toPrecision(4))).join(', ')}`;
      return row;
    }));
  }

  // ---- overlays: joint axes, centres of mass, inertia boxes, perturbation ---

  const markers = new THREE.Group();
  overlay.add(markers);
  let axesLines = null, comPoints = null, arrow = null, targetLine = null;
  const inertiaBoxes = [];

  function buildMarkers(h) {
    for (const o of [...markers.children]) markers.remove(o);
    inertiaBoxes.length = 0;
    const ag = new THREE.BufferGeometry();
    ag.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6 * Math.max(1, h.joints.length)), 3));
    axesLines = new THREE.LineSegments(ag, new THREE.LineBasicMaterial({ color: 0x36d1ff, depthTest: false }));
    axesLines.name = 'joint-axes';
    const cg = new THREE.BufferGeometry();
    cg.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * h.bodies.length), 3));
    comPoints = new THREE.Points(cg, new THREE.PointsMaterial({ color: 0xff66ff, size: 8, sizeAttenuation: false, depthTest: false }));
    comPoints.name = 'coms';
    h.bodies.forEach((b, i) => {
      if (b.fixed || !(b.mass > 0)) return;
      // The box of uniform density with the body's mass and principal
      // moments of inertia about the COM, along the principal axes (as
      // MuJoCo's equivalent-inertia box): a² = 6 (I_2 + I_3 − I_1) / m
      // along axis 1, and so on.
      const [i1, i2, i3] = b.inertia;
      const side = (a, c, d) => Math.sqrt(Math.max(1e-12, 6 * (c + d - a) / b.mass));
      const box = new THREE.Mesh(new THREE.BoxGeometry(side(i1, i2, i3), side(i2, i3, i1), side(i3, i1, i2)),
        new THREE.MeshBasicMaterial({ color: 0x66ff99, wireframe: true, depthTest: false }));
      const [a1, a2, a3] = b.inertia_axes.map((a) => new THREE.Vector3(...a));
      box.userData.axes = new THREE.Quaternion().setFromRotationMatrix(new THREE.Matrix4().makeBasis(a1, a2, a3));
      box.userData.body = i;
      box.name = 'inertia-box';
      inertiaBoxes.push(box);
      markers.add(box);
    });
    arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 0.1, 0xffaa00, 0.03, 0.02);
    arrow.name = 'perturbation';
    arrow.visible = false;
    const tg = new THREE.BufferGeometry();
    tg.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6), 3));
    targetLine = new THREE.Line(tg, new THREE.LineDashedMaterial({ color: 0xffaa00, dashSize: 0.01, gapSize: 0.01, depthTest: false }));
    targetLine.visible = false;
    for (const o of [axesLines, comPoints, arrow, targetLine]) { o.frustumCulled = false; o.renderOrder = 4; markers.add(o); }
  }

  function drawLive(m) {
    const h = L.hello;
    const ap = axesLines.geometry.attributes.position;
    m.axes.forEach((a, i) => {
      ap.setXYZ(2 * i, a[0] - 0.06 * a[3], a[1] - 0.06 * a[4], a[2] - 0.06 * a[5]);
      ap.setXYZ(2 * i + 1, a[0] + 0.06 * a[3], a[1] + 0.06 * a[4], a[2] + 0.06 * a[5]);
    });
    ap.needsUpdate = true;
    axesLines.geometry.setDrawRange(0, 2 * m.axes.length);
    const cp = comPoints.geometry.attributes.position;
    const p = m.frame.poses;
    const v = new THREE.Vector3(), q = new THREE.Quaternion();
    h.bodies.forEach((b, i) => {
      q.set(p[i][4], p[i][5], p[i][6], p[i][3]);
      v.set(b.com[0], b.com[1], b.com[2]).applyQuaternion(q).add(new THREE.Vector3(p[i][0], p[i][1], p[i][2]));
      cp.setXYZ(i, v.x, v.y, v.z);
    });
    cp.needsUpdate = true;
    for (const box of inertiaBoxes) {
      const i = box.userData.body, b = h.bodies[i];
      q.set(p[i][4], p[i][5], p[i][6], p[i][3]);
      box.quaternion.copy(q).multiply(box.userData.axes);
      box.position.set(b.com[0], b.com[1], b.com[2]).applyQuaternion(q).add(new THREE.Vector3(p[i][0], p[i][1], p[i][2]));
    }
    drawPerturbation(m.perturb);
  }

  function drawPerturbation(pt) {
    arrow.visible = targetLine.visible = !!pt;
    if (!pt) return;
    const f = new THREE.Vector3(...pt.force);
    const n = f.length();
    const mass = L.hello.bodies[pt.body].subtree_mass || 1;
    // Drawn as 10 cm per m g of the perturbed mass (1 m per 10 g).
    const len = Math.max(0.02, Math.min(1, 0.1 * n / (9.81 * mass)));
    arrow.position.set(...pt.point);
    if (n > 0) arrow.setDirection(f.clone().divideScalar(n));
    arrow.setLength(len, Math.min(0.04, 0.3 * len), Math.min(0.025, 0.2 * len));
    arrow.setColor(pt.torque ? 0x9f7bff : 0xffaa00);
    const tp = targetLine.geometry.attributes.position;
    tp.setXYZ(0, ...pt.point);
    tp.setXYZ(1, ...(pt.torque ? pt.point : pt.target));
    tp.needsUpdate = true;
    targetLine.computeLineDistances();
  }

  // ---- toggles ----------------------------------------------------------------

  function applyLiveToggles() {
    if (!axesLines) return;
    axesLines.visible = $('show-axes').checked;
    comPoints.visible = $('show-coms').checked;
    for (const b of inertiaBoxes) b.visible = $('show-inertia').checked;
    $('live-sensors').hidden = !$('show-sensors').checked;
    if (L.last) showSensors(L.last);
    const collision = $('show-collision').checked;
    bodies.traverse((o) => {
      if (!o.isMesh || !o.userData.kind) return;
      if (o.userData.kind === 'visual') o.visible = !collision;
      if (o.userData.kind === 'collision') o.visible = collision;
    });
    render();
  }
  for (const id of ['show-axes', 'show-coms', 'show-inertia', 'show-collision', 'show-sensors']) $(id).addEventListener('change', applyLiveToggles);

  // ---- selection and inspection -------------------------------------------------

  const ray = new THREE.Raycaster();
  function pick(ev) {
    const r = renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
    ray.setFromCamera(ndc, camera);
    const hits = ray.intersectObjects(bodies.children, true).filter((h) => h.object.visible && h.object.userData.body !== undefined && !L.hello.bodies[h.object.userData.body].fixed);
    return hits.length ? { body: hits[0].object.userData.body, point: hits[0].point, ray: ray.ray.clone() } : null;
  }

  function select(b) {
    L.selected = b;
    bodies.children.forEach((g, i) => g.traverse((o) => {
      if (o.isMesh && o.material && o.material.emissive) o.material.emissive.setHex(i === b ? 0x333300 : 0x000000);
    }));
    showSelection();
    render();
  }

  function showSelection() {
    const box = $('live-body');
    const b = L.selected;
    if (b < 0 || !L.last || !L.hello) { setText(box, 'double-click a body to inspect it; ctrl-drag to pull it, ctrl-right-drag to twist it'); return; }
    const info = L.hello.bodies[b], m = L.last, p = m.frame.poses[b], v = m.vel[b];
    let n = 0;
    const f = [0, 0, 0];
    (m.pairs || []).forEach((pr, k) => {
      if (pr[0] !== b && pr[1] !== b) return;
      n++;
      const c = m.frame.contacts[k], s = pr[1] === b ? 1 : -1; // the force is on body B
      for (let j = 0; j < 3; j++) f[j] += s * c[6 + j];
    });
    const r3 = (a, o = 0) => [a[o], a[o + 1], a[o + 2]].map((x) => x.toFixed(3)).join(', ');
    box.innerHTML = '';
    const lines = [
      `<b>${info.name}</b> (body ${b})`,
      `mass ${info.mass.toPrecision(4)} kg (with children ${info.subtree_mass.toPrecision(4)})`,
      `position ${r3(p)} m`,
      `quaternion ${[p[3], p[4], p[5], p[6]].map((x) => x.toFixed(3)).join(', ')}`,
      `ω ${r3(v)} rad/s`,
      `v ${r3(v, 3)} m/s`,
      `contacts ${n}, total force ${r3(f)} N`,
    ];
    for (const l of lines) { const d = document.createElement('div'); d.innerHTML = l; box.appendChild(d); }
    box.firstChild.querySelector('b').textContent = info.name;
  }

  renderer.domElement.addEventListener('dblclick', (ev) => { const h = pick(ev); select(h ? h.body : -1); });

  // ---- perturbation: ctrl-drag pulls, ctrl-right-drag twists ------------------------

  const el = renderer.domElement;
  el.addEventListener('contextmenu', (ev) => { if (ev.ctrlKey) ev.preventDefault(); });
  el.addEventListener('pointerdown', (ev) => {
    if (!ev.ctrlKey || !L.control) return;
    const h = pick(ev);
    if (!h) return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    controls.enabled = false;
    if (L.selected !== h.body) select(h.body);
    const p = L.last.frame.poses[h.body];
    const q = new THREE.Quaternion(p[4], p[5], p[6], p[3]);
    const local = h.point.clone().sub(new THREE.Vector3(p[0], p[1], p[2])).applyQuaternion(q.clone().invert());
    const normal = camera.getWorldDirection(new THREE.Vector3());
    L.drag = { body: h.body, start: h.point.clone(), local, plane: new THREE.Plane().setFromNormalAndCoplanarPoint(normal, h.point), torque: ev.button === 2, x0: ev.clientX, y0: ev.clientY, q0: q, axis: normal };
    el.setPointerCapture(ev.pointerId);
    dragTo(ev);
  }, { capture: true });
  el.addEventListener('pointermove', (ev) => { if (L.drag) dragTo(ev); });
  const endDrag = () => {
    if (!L.drag) return;
    L.drag = null;
    controls.enabled = true;
    send({ type: 'release' });
  };
  el.addEventListener('pointerup', endDrag);
  el.addEventListener('pointercancel', endDrag);

  function dragTo(ev) {
    const d = L.drag;
    if (d.torque) {
      // Horizontal motion turns the target about the view axis, vertical
      // motion about the screen's horizontal axis: 0.01 rad per pixel.
      const right = new THREE.Vector3().crossVectors(d.axis, camera.up).normalize();
      const r = new THREE.Quaternion().setFromAxisAngle(d.axis, -(ev.clientX - d.x0) * 0.01)
        .multiply(new THREE.Quaternion().setFromAxisAngle(right, (ev.clientY - d.y0) * 0.01));
      const t = r.multiply(d.q0).normalize();
      send({ type: 'perturb', body: d.body, rotation: [t.w, t.x, t.y, t.z] });
      return;
    }
    const r = el.getBoundingClientRect();
    ray.setFromCamera(new THREE.Vector2(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1), camera);
    const target = new THREE.Vector3();
    if (!ray.ray.intersectPlane(d.plane, target)) return;
    send({ type: 'perturb', body: d.body, point: [d.local.x, d.local.y, d.local.z], target: [target.x, target.y, target.z] });
  }

  // ---- buttons --------------------------------------------------------------------

  $('live-pause').addEventListener('click', () => send({ type: L.last && L.last.paused ? 'resume' : 'pause' }));
  $('live-step').addEventListener('click', () => send({ type: 'step' }));
  $('live-reset').addEventListener('click', () => send({ type: 'reset', keyframe: $('live-key').value }));
  $('live-rate').addEventListener('change', (e) => send({ type: 'rate', factor: Number(e.target.value) }));
  $('live-zero').addEventListener('click', () => send({ type: 'zero' }));
  $('live-open').addEventListener('click', () => send({ type: 'open', model: $('live-model').value }));
  $('live-rec').addEventListener('click', () => send({ type: 'record' }));
  window.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    if (e.code === 'Space') { e.preventDefault(); e.stopImmediatePropagation(); $('live-pause').click(); }
    if (e.code === 'ArrowRight' && L.last && L.last.paused) send({ type: 'step' });
  }, { capture: true });

  // ---- test and scripting hooks ------------------------------------------------------

  window.stiction.live = {
    send,
    raw: (s) => send(s),
    hello: () => L.hello,
    last: () => L.last,
    frames: () => L.frames,
    errors: () => L.errors,
    latency: () => L.latency,
    arrival: () => L.arrival,
    shown: () => L.shown,
    resetLatency: () => { L.latency = []; L.arrival = []; L.shown = []; L.pending = null; },
    sent: () => L.sent,
    recorded: () => L.recorded,
    select,
    selected: () => L.selected,
    pickAt: (x, y) => { const h = pick({ clientX: x, clientY: y }); return h ? h.body : -1; },
    dragging: () => (L.drag ? L.drag.body : -1),
    // dragStart is the grabbed point's world position when the drag began.
    dragStart: () => (L.drag ? L.drag.start.toArray() : null),
    drawnStep: () => (L.drawnStep === undefined ? -1 : L.drawnStep), // the step of the last frame drawn
    bodyPanel: () => $('live-body').textContent,
    setSlider: (i, u) => { const s = $(`act-${i}`); s.value = u; s.dispatchEvent(new Event('input')); return Number(s.value); },
    toggle: (id, on) => { $(id).checked = on; $(id).dispatchEvent(new Event('change')); },
    // screenPoint returns the page coordinates of world point p.
    screenPoint: (p) => {
      const v = new THREE.Vector3(...p).project(camera), r = el.getBoundingClientRect();
      return [r.left + (v.x + 1) / 2 * r.width, r.top + (1 - v.y) / 2 * r.height];
    },
    // pixels returns a hash of the rendered picture.
    pixels: () => {
      render();
      const d = el.toDataURL('image/png');
      let h = 2166136261;
      for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d.charCodeAt(i), 16777619);
      return String(h >>> 0) + ':' + d.length;
    },
    // inertiaBoxes returns each inertia box's body, world quaternion
    // (w, x, y, z) and sides.
    inertiaBoxes: () => inertiaBoxes.map((b) => ({ body: b.userData.body, quaternion: [b.quaternion.w, b.quaternion.x, b.quaternion.y, b.quaternion.z],
      sides: [b.geometry.parameters.width, b.geometry.parameters.height, b.geometry.parameters.depth] })),
    sensorText: () => $('live-sensors').hidden ? '' : $('live-sensors').textContent,
    drawn: () => {
      const cp = overlay.children.find((o) => o.isPoints && o !== comPoints && o.parent === overlay);
      const fl = overlay.children.find((o) => o.isLineSegments && o.parent === overlay);
      const out = { contacts: cp && cp.visible ? cp.geometry.drawRange.count : 0, forces: fl && fl.visible ? fl.geometry.drawRange.count / 2 : 0, axes: axesLines.visible ? axesLines.geometry.drawRange.count / 2 : 0, coms: comPoints.visible ? L.hello.bodies.length : 0,
        inertia: inertiaBoxes.filter((b) => b.visible).length, collision: 0, visual: 0, arrow: arrow.visible };
      bodies.traverse((o) => { if (o.isMesh && o.visible && (o.userData.kind === 'collision' || o.userData.kind === 'visual')) out[o.userData.kind]++; });
      return out;
    },
  };

  await connect();
}
