// mjref: reference runs of MuJoCo for Stiction's parity tests.
//
// This is test tooling only (package internal/mjref builds it with gcc
// against Debian's libmujoco-dev); the engine itself is pure Go.
//
// Usage:
//
//	mjref [options] model.xml
//
//	-n N            steps to take with zero control (default 100)
//	-every K        record qpos, qvel and the root position every K steps
//	                (default 1; 0 records only the initial and final states)
//	-dt H           override the model's timestep
//	-integrator I   override the integrator: euler, rk4 or implicit
//	-key K          start from keyframe K (index or name)
//	-state          read the initial qpos (nq numbers) then qvel (nv
//	                numbers) from stdin, after the keyframe if any
//	-keepwarm       keep Newton's and CG's warm start (qacc_warmstart) as
//	                mj_step left it across the recording mj_forward, as
//	                always for PGS: the trajectory of mj_step alone
//	-poses          record every body's world position and orientation
//	                (xpos, xquat) with each recorded step
//	-stages K       record the evaluations of mj_forwardSkip within step K
//	                (from state K−1 to K; RK4's four stages, Euler's one):
//	                each one's time, qpos, qvel, its resulting qacc, its
//	                contacts (geoms, dist) and constraint rows (efc type,
//	                id, pos, margin), as the field "stages"
//	-ctrl C0,C1,..  the controls of the steps (nu values) instead of zero
//	-ctrlfreq F     with -ctrl: control i at time t (the step's start) is
//	                C_i (1 + sin(2 pi F t + i))/2
//	-curves N       curve mode: for every muscle actuator, write MuJoCo's
//	                mju_muscleGain and mju_muscleBias on an N x N grid of
//	                lengths and velocities and mju_muscleDynamics on an
//	                N x N grid of controls and activations, then exit
//	-time R         timing mode: take the N steps of -n R times from the
//	                initial state (mj_resetData, or the keyframe) with zero
//	                control, timing the mj_step calls with the monotonic
//	                clock and the process CPU-time clock, and write only
//	                {"file", "timestep", "steps", "repeats", "seconds",
//	                "cpu_seconds"} (each the fastest repeat's)
//	-collide        collision mode: take the -n steps (default 100) from
//	                the initial state (the keyframe, -state), call
//	                mj_forward and write only {"file", "mpr_tolerance",
//	                "mpr_iterations", "multiccd", "geoms": [{"type",
//	                "size", "xpos", "xmat", "rbound", "mesh"}], "meshes":
//	                [{"vert", "graph"}], "contacts": [{"geom", "dist",
//	                "pos", "frame"}]}: MuJoCo's collision inputs and output
//	-meshfaces      mesh mode: write only {"file", "meshes": [{"name",
//	                "nvert", "faces", "graph"}]}, each mesh's triangles (mesh_face,
//	                vertex indices of the mesh) and graph (mesh_graph)
//
// It writes one JSON object to stdout: the model's sizes, bodies (mass,
// inertia, frames), joints, qpos0, the initial state, the joint-space mass
// matrix M at the initial state (mj_fullM after mj_forward), the sensors,
// the recorded steps (qpos, qvel, sensordata, the root body's position,
// contacts), and contact statistics over every step. On failure it prints a
// message naming the file on stderr and exits with status 1.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mujoco/mujoco.h>

static const char* file = "";

static void die(const char* msg, const char* detail) {
  fprintf(stderr, "mjref: %s: %s%s%s\n", file, msg, detail[0] ? ": " : "", detail);
  exit(1);
}

// num prints one number as JSON: shortest round-trip form, null if not
// finite.
static void num(double x) {
  if (!isfinite(x)) {
    fputs("null", stdout);
    return;
  }
  char buf[40];
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, x);
    if (strtod(buf, NULL) == x) break;
  }
  fputs(buf, stdout);
}

static void arr(const mjtNum* x, int n) {
  putchar('[');
  for (int i = 0; i < n; i++) {
    if (i) putchar(',');
    num(x[i]);
  }
  putchar(']');
}

static void iarr(const int* x, int n) {
  putchar('[');
  for (int i = 0; i < n; i++) printf(i ? ",%d" : "%d", x[i]);
  putchar(']');
}

// str prints a JSON string.
static void str(const char* s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      putchar('\\');
      putchar(c);
    } else if (c < 0x20) {
      printf("\\u%04x", c);
    } else {
      putchar(c);
    }
  }
  putchar('"');
}

static const char* name(const mjModel* m, int type, int id) {
  const char* s = mj_id2name(m, type, id);
  return s ? s : "";
}

// contacts returns the number of contacts of d and writes the deepest
// penetration (max of −dist, 0 if none penetrates).
static int contacts(const mjData* d, double* pen) {
  *pen = 0;
  for (int i = 0; i < d->ncon; i++) {
    if (-d->contact[i].dist > *pen) *pen = -d->contact[i].dist;
  }
  return d->ncon;
}

static int poses = 0;
static int keepWarm = 0; // -keepwarm
static int stepIter = 0; // d->solver_iter after the recorded step's mj_step
static double* ctrlBase = NULL;
static int nctrlBase = 0;
static double ctrlFreq = 0;

// setCtrl sets the step's controls: zero, or -ctrl's pattern at d->time.
static void setCtrl(const mjModel* m, mjData* d) {
  mju_zero(d->ctrl, m->nu);
  for (int i = 0; i < m->nu && i < nctrlBase; i++) {
    d->ctrl[i] = ctrlBase[i];
    if (ctrlFreq > 0) d->ctrl[i] *= 0.5 * (1 + sin(2 * mjPI * ctrlFreq * d->time + i));
  }
}

// curves is the -curves mode: MuJoCo's muscle functions on grids.
static void curves(const mjModel* m, int n) {
  printf("{\"file\":");
  str(file);
  printf(",\"curves\":[");
  int first = 1;
  for (int i = 0; i < m->nu; i++) {
    if (m->actuator_gaintype[i] != mjGAIN_MUSCLE) continue;
    const mjtNum* lr = m->actuator_lengthrange + 2 * i;
    const mjtNum* prm = m->actuator_gainprm + mjNGAIN * i;
    mjtNum dif = lr[1] - lr[0], L0 = dif / (prm[1] - prm[0]);
    printf(first ? "{\"actuator\":%d,\"len\":[" : ",{\"actuator\":%d,\"len\":[", i);
    first = 0;
    for (int k = 0; k < n; k++) {
      if (k) putchar(',');
      num(lr[0] + dif * (-1.0 + 3.0 * k / (n - 1)));
    }
    printf("],\"vel\":[");
    for (int k = 0; k < n; k++) {
      if (k) putchar(',');
      num(L0 * prm[6] * (-1.5 + 3.5 * k / (n - 1)));
    }
    printf("],\"gain\":[");
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        if (a || b) putchar(',');
        num(mju_muscleGain(lr[0] + dif * (-1.0 + 3.0 * a / (n - 1)), L0 * prm[6] * (-1.5 + 3.5 * b / (n - 1)), lr,
                           m->actuator_acc0[i], prm));
      }
    }
    printf("],\"bias\":[");
    for (int a = 0; a < n; a++) {
      if (a) putchar(',');
      num(mju_muscleBias(lr[0] + dif * (-1.0 + 3.0 * a / (n - 1)), lr, m->actuator_acc0[i],
                         m->actuator_biasprm + mjNBIAS * i));
    }
    printf("],\"x\":[");
    for (int k = 0; k < n; k++) {
      if (k) putchar(',');
      num(-0.25 + 1.5 * k / (n - 1));
    }
    printf("],\"dyn\":[");
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        if (a || b) putchar(',');
        num(mju_muscleDynamics(-0.25 + 1.5 * a / (n - 1), -0.25 + 1.5 * b / (n - 1), m->actuator_dynprm + mjNDYN * i));
      }
    }
    printf("]}");
  }
  printf("]}\n");
}

// stage is one evaluation of mj_forwardSkip within the step that -stages
// names, captured by the control callback (after mj_fwdPosition and
// mj_fwdVelocity, before the constraint solver); its qacc is the one
// d->qacc holds at the next evaluation's callback, or after mj_step for
// the last.
typedef struct {
  double time;
  double *qpos, *qvel, *qacc;
  int ncon, nefc;
  int *geom, *efcType, *efcID;
  double *dist, *efcPos, *efcMargin;
} stage;

enum { maxStages = 8 };
static stage stages[maxStages];
static int nstages = 0, capturing = 0;

static double* dup(const mjtNum* x, int n) {
  double* y = (double*)malloc(sizeof(double) * (size_t)(n + 1));
  if (!y) die("out of memory", "");
  for (int i = 0; i < n; i++) y[i] = x[i];
  return y;
}

static int* idup(const int* x, int n) {
  int* y = (int*)malloc(sizeof(int) * (size_t)(n + 1));
  if (!y) die("out of memory", "");
  for (int i = 0; i < n; i++) y[i] = x[i];
  return y;
}

// captureStage is the control callback while -stages captures.
static void captureStage(const mjModel* m, mjData* d) {
  if (!capturing) return;
  if (nstages > 0) stages[nstages - 1].qacc = dup(d->qacc, m->nv);
  if (nstages >= maxStages) die("-stages: more evaluations in one step than expected", "");
  stage* s = &stages[nstages++];
  s->time = d->time;
  s->qpos = dup(d->qpos, m->nq);
  s->qvel = dup(d->qvel, m->nv);
  s->qacc = NULL;
  s->ncon = d->ncon;
  s->geom = (int*)malloc(sizeof(int) * (size_t)(2 * d->ncon + 1));
  s->dist = (double*)malloc(sizeof(double) * (size_t)(d->ncon + 1));
  if (!s->geom || !s->dist) die("out of memory", "");
  for (int i = 0; i < d->ncon; i++) {
    s->geom[2 * i] = d->contact[i].geom1;
    s->geom[2 * i + 1] = d->contact[i].geom2;
    s->dist[i] = d->contact[i].dist;
  }
  s->nefc = d->nefc;
  s->efcType = idup(d->efc_type, d->nefc);
  s->efcID = idup(d->efc_id, d->nefc);
  s->efcPos = dup(d->efc_pos, d->nefc);
  s->efcMargin = dup(d->efc_margin, d->nefc);
}

// printStages writes the captured evaluations as the JSON field "stages".
static void printStages(const mjModel* m) {
  printf(",\"stages\":[");
  for (int k = 0; k < nstages; k++) {
    const stage* s = &stages[k];
    printf(k ? ",{\"time\":" : "{\"time\":");
    num(s->time);
    printf(",\"qpos\":");
    arr(s->qpos, m->nq);
    printf(",\"qvel\":");
    arr(s->qvel, m->nv);
    printf(",\"qacc\":");
    if (s->qacc) {
      arr(s->qacc, m->nv);
    } else {
      printf("null");
    }
    printf(",\"contact_geoms\":");
    iarr(s->geom, 2 * s->ncon);
    printf(",\"contact_dist\":");
    arr(s->dist, s->ncon);
    printf(",\"efc_type\":");
    iarr(s->efcType, s->nefc);
    printf(",\"efc_id\":");
    iarr(s->efcID, s->nefc);
    printf(",\"efc_pos\":");
    arr(s->efcPos, s->nefc);
    printf(",\"efc_margin\":");
    arr(s->efcMargin, s->nefc);
    putchar('}');
  }
  putchar(']');
}

static double now(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// timeSteps is the -time mode: the fastest of repeats runs of nsteps
// mj_step calls from the initial state, each preceded by a reset to it.
static void timeSteps(const mjModel* m, mjData* d, int nsteps, int repeats, int key) {
  double best = -1, bestCPU = -1;
  for (int r = 0; r < repeats; r++) {
    if (key >= 0) {
      mj_resetDataKeyframe(m, d, key);
    } else {
      mj_resetData(m, d);
    }
    mju_zero(d->ctrl, m->nu);
    double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    for (int s = 0; s < nsteps; s++) mj_step(m, d);
    double t = now(CLOCK_MONOTONIC) - t0, c = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (best < 0 || t < best) best = t;
    if (bestCPU < 0 || c < bestCPU) bestCPU = c;
  }
  printf("{\"file\":");
  str(file);
  printf(",\"timestep\":");
  num(m->opt.timestep);
  printf(",\"steps\":%d,\"repeats\":%d,\"seconds\":", nsteps, repeats);
  num(best);
  printf(",\"cpu_seconds\":");
  num(bestCPU);
  printf("}\n");
}

// limitRows counts the joint- and tendon-limit rows of d's constraints.
static int limitRows(const mjData* d) {
  int n = 0;
  for (int i = 0; i < d->nefc; i++) {
    if (d->efc_type[i] == mjCNSTR_LIMIT_JOINT || d->efc_type[i] == mjCNSTR_LIMIT_TENDON) n++;
  }
  return n;
}

static void record(const mjModel* m, const mjData* d, int root, int step) {
  double pen;
  int ncon = contacts(d, &pen);
  printf("{\"step\":%d,\"time\":", step);
  num(d->time);
  printf(",\"qpos\":");
  arr(d->qpos, m->nq);
  printf(",\"qvel\":");
  arr(d->qvel, m->nv);
  printf(",\"sensordata\":");
  arr(d->sensordata, m->nsensordata);
  printf(",\"root_xpos\":");
  arr(d->xpos + 3 * root, 3);
  if (poses) {
    printf(",\"xpos\":");
    arr(d->xpos, 3 * m->nbody);
    printf(",\"xquat\":");
    arr(d->xquat, 4 * m->nbody);
  }
  printf(",\"ncon\":%d,\"nlimit\":%d,\"solver_iter\":%d,\"penetration\":", ncon, limitRows(d), stepIter);
  num(pen);
  if (m->nu) {
    printf(",\"act\":");
    arr(d->act, m->na);
    printf(",\"actuator_force\":");
    arr(d->actuator_force, m->nu);
    printf(",\"actuator_length\":");
    arr(d->actuator_length, m->nu);
    printf(",\"actuator_velocity\":");
    arr(d->actuator_velocity, m->nu);
  }
  putchar('}');
}

// printMeshFaces is the -meshfaces mode: every mesh's name, vertex count,
// triangles (mesh_face) and vertex graph (mesh_graph, null when none).
static void printMeshFaces(const mjModel* m) {
  printf("{\"file\":\"%s\",\"meshes\":[", file);
  for (int i = 0; i < m->nmesh; i++) {
    const char* name = m->names + m->name_meshadr[i];
    printf("%s{\"name\":\"%s\",\"nvert\":%d,\"faces\":[", i ? "," : "", name, m->mesh_vertnum[i]);
    const int* f = m->mesh_face + 3 * m->mesh_faceadr[i];
    for (int j = 0; j < m->mesh_facenum[i]; j++) {
      printf("%s[%d,%d,%d]", j ? "," : "", f[3 * j], f[3 * j + 1], f[3 * j + 2]);
    }
    printf("],\"graph\":");
    if (m->mesh_graphadr[i] < 0) {
      printf("null");
    } else {
      const int* g = m->mesh_graph + m->mesh_graphadr[i];
      iarr(g, 2 + 3 * g[0] + 6 * g[1]);
    }
    putchar('}');
  }
  printf("]}\n");
}

// printCollide is the -collide mode's output (see the usage above).
static void printCollide(const mjModel* m, const mjData* d) {
  printf("{\"file\":");
  str(file);
  printf(",\"mpr_tolerance\":");
  num(m->opt.mpr_tolerance);
  printf(",\"mpr_iterations\":%d,\"multiccd\":%d,\"geoms\":[", m->opt.mpr_iterations,
         (m->opt.enableflags & mjENBL_MULTICCD) ? 1 : 0);
  for (int i = 0; i < m->ngeom; i++) {
    printf(i ? ",{\"type\":%d,\"mesh\":%d,\"size\":" : "{\"type\":%d,\"mesh\":%d,\"size\":", m->geom_type[i],
           m->geom_type[i] == mjGEOM_MESH ? m->geom_dataid[i] : -1);
    arr(m->geom_size + 3 * i, 3);
    printf(",\"xpos\":");
    arr(d->geom_xpos + 3 * i, 3);
    printf(",\"xmat\":");
    arr(d->geom_xmat + 9 * i, 9);
    printf(",\"rbound\":");
    num(m->geom_rbound[i]);
    printf(",\"quat\":");
    arr(m->geom_quat + 4 * i, 4);
    printf(",\"pos\":");
    arr(m->geom_pos + 3 * i, 3);
    printf(",\"sameframe\":%d,\"xquat\":", m->geom_sameframe[i]);
    arr(d->xquat + 4 * m->geom_bodyid[i], 4);
    printf(",\"bodyxpos\":");
    arr(d->xpos + 3 * m->geom_bodyid[i], 3);
    printf(",\"iquat\":");
    arr(m->body_iquat + 4 * m->geom_bodyid[i], 4);
    putchar('}');
  }
  printf("],\"meshes\":[");
  for (int i = 0; i < m->nmesh; i++) {
    printf(i ? ",{\"vert\":[" : "{\"vert\":[");
    const float* v = m->mesh_vert + 3 * m->mesh_vertadr[i];
    for (int j = 0; j < 3 * m->mesh_vertnum[i]; j++) {
      if (j) putchar(',');
      num((double)v[j]);
    }
    printf("],\"graph\":");
    if (m->mesh_graphadr[i] < 0) {
      printf("null");
    } else {
      const int* g = m->mesh_graph + m->mesh_graphadr[i];
      iarr(g, 2 + 3 * g[0] + 6 * g[1]);
    }
    putchar('}');
  }
  printf("],\"contacts\":[");
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* c = d->contact + i;
    printf(i ? ",{\"geom\":[%d,%d],\"dist\":" : "{\"geom\":[%d,%d],\"dist\":", c->geom1, c->geom2);
    num(c->dist);
    printf(",\"pos\":");
    arr(c->pos, 3);
    printf(",\"frame\":");
    arr(c->frame, 9);
    putchar('}');
  }
  printf("]}\n");
}

/* MuJoCo's default warning handler prints to stdout, which carries the JSON
   answer (auto_limits.xml: "WARNING: Inertia matrix is too close to
   singular"): send warnings to stderr. */
static void warnToStderr(const char* msg) { fprintf(stderr, "MuJoCo warning: %s\n", msg); }

int main(int argc, char** argv) {
  mju_user_warning = warnToStderr;
  int nsteps = 100, every = 1, readState = 0, repeats = 0, stageStep = 0, ncurve = 0, meshFaces = 0, collide = 0;
  double dt = 0;
  const char* integrator = NULL;
  const char* key = NULL;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    if (a[0] != '-') {
      if (file[0]) die("more than one model file", a);
      file = a;
      continue;
    }
    if (!strcmp(a, "-state")) {
      readState = 1;
      continue;
    }
    if (!strcmp(a, "-keepwarm")) {
      keepWarm = 1;
      continue;
    }
    if (!strcmp(a, "-poses")) {
      poses = 1;
      continue;
    }
    if (!strcmp(a, "-meshfaces")) {
      meshFaces = 1;
      continue;
    }
    if (!strcmp(a, "-collide")) {
      collide = 1;
      continue;
    }
    if (i + 1 >= argc) die("option needs a value", a);
    const char* v = argv[++i];
    char* end;
    if (!strcmp(a, "-n")) {
      nsteps = (int)strtol(v, &end, 10);
      if (*end || nsteps < 0) die("-n: bad step count", v);
    } else if (!strcmp(a, "-every")) {
      every = (int)strtol(v, &end, 10);
      if (*end || every < 0) die("-every: bad value", v);
    } else if (!strcmp(a, "-dt")) {
      dt = strtod(v, &end);
      if (*end || !(dt > 0)) die("-dt: bad timestep", v);
    } else if (!strcmp(a, "-time")) {
      repeats = (int)strtol(v, &end, 10);
      if (*end || repeats < 1) die("-time: bad repeat count", v);
    } else if (!strcmp(a, "-stages")) {
      stageStep = (int)strtol(v, &end, 10);
      if (*end || stageStep < 1) die("-stages: bad step number", v);
    } else if (!strcmp(a, "-integrator")) {
      integrator = v;
    } else if (!strcmp(a, "-key")) {
      key = v;
    } else if (!strcmp(a, "-ctrlfreq")) {
      ctrlFreq = strtod(v, &end);
      if (*end || !(ctrlFreq >= 0)) die("-ctrlfreq: bad frequency", v);
    } else if (!strcmp(a, "-curves")) {
      ncurve = (int)strtol(v, &end, 10);
      if (*end || ncurve < 2) die("-curves: bad grid size", v);
    } else if (!strcmp(a, "-ctrl")) {
      const char* p = v;
      while (*p) {
        ctrlBase = (double*)realloc(ctrlBase, sizeof(double) * (size_t)(nctrlBase + 1));
        if (!ctrlBase) die("out of memory", "");
        ctrlBase[nctrlBase++] = strtod(p, &end);
        if (end == p || (*end && *end != ',')) die("-ctrl: bad value list", v);
        p = *end ? end + 1 : end;
      }
    } else {
      die("unknown option", a);
    }
  }
  if (!file[0]) {
    file = "(none)";
    die("usage: mjref [-n N] [-every K] [-dt H] [-integrator euler|rk4|implicit] [-key K] [-state] [-poses] [-stages K] [-ctrl C0,C1,.. [-ctrlfreq F]] [-curves N] [-time R] [-meshfaces] [-collide] model.xml", "");
  }

  char err[1000] = "";
  mjModel* m = mj_loadXML(file, NULL, err, sizeof err);
  if (!m) die("mj_loadXML", err);
  if (meshFaces) {
    printMeshFaces(m);
    mj_deleteModel(m);
    return 0;
  }
  if (dt > 0) m->opt.timestep = dt;
  if (integrator) {
    if (!strcmp(integrator, "euler")) {
      m->opt.integrator = mjINT_EULER;
    } else if (!strcmp(integrator, "rk4")) {
      m->opt.integrator = mjINT_RK4;
    } else if (!strcmp(integrator, "implicit")) {
      m->opt.integrator = mjINT_IMPLICIT;
    } else {
      die("-integrator: want euler, rk4 or implicit, got", integrator);
    }
  }
  if (ncurve > 0) {
    curves(m, ncurve);
    mj_deleteModel(m);
    return 0;
  }
  mjData* d = mj_makeData(m);
  if (!d) die("mj_makeData failed", "");

  int keyID = -1;
  if (key) {
    char* end;
    keyID = (int)strtol(key, &end, 10);
    if (*end) keyID = mj_name2id(m, mjOBJ_KEY, key);
    if (keyID < 0 || keyID >= m->nkey) die("-key: no such keyframe", key);
    mj_resetDataKeyframe(m, d, keyID);
  }
  if (repeats > 0) {
    if (readState) die("-time cannot be combined with -state", "");
    timeSteps(m, d, nsteps, repeats, keyID);
    mj_deleteData(d);
    mj_deleteModel(m);
    return 0;
  }
  if (readState) {
    for (int i = 0; i < m->nq; i++)
      if (scanf("%lf", &d->qpos[i]) != 1) die("-state: stdin ends before qpos is complete", "");
    for (int i = 0; i < m->nv; i++)
      if (scanf("%lf", &d->qvel[i]) != 1) die("-state: stdin ends before qvel is complete", "");
  }
  mj_forward(m, d);
  if (collide) {
    for (int i = 0; i < nsteps; i++) mj_step(m, d);
    mj_forward(m, d);
    printCollide(m, d);
    mj_deleteData(d);
    mj_deleteModel(m);
    return 0;
  }

  // The root: the first body with a free joint, else the world's first child.
  int root = m->nbody > 1 ? 1 : 0;
  for (int j = 0; j < m->njnt; j++) {
    if (m->jnt_type[j] == mjJNT_FREE) {
      root = m->jnt_bodyid[j];
      break;
    }
  }

  static const char* intNames[] = {"euler", "rk4", "implicit"};
  printf("{\"file\":");
  str(file);
  printf(",\"nq\":%d,\"nv\":%d,\"nbody\":%d,\"njnt\":%d,\"ngeom\":%d,\"nkey\":%d,\"timestep\":", m->nq, m->nv,
         m->nbody, m->njnt, m->ngeom, m->nkey);
  num(m->opt.timestep);
  printf(",\"integrator\":\"%s\",\"gravity\":",
         m->opt.integrator >= 0 && m->opt.integrator < 3 ? intNames[m->opt.integrator] : "?");
  arr(m->opt.gravity, 3);
  static const char* solNames[] = {"pgs", "cg", "newton"};
  printf(",\"solver\":\"%s\",\"iterations\":%d",
         m->opt.solver >= 0 && m->opt.solver < 3 ? solNames[m->opt.solver] : "?", m->opt.iterations);
  printf(",\"tolerance\":");
  num(m->opt.tolerance);
  printf(",\"disableflags\":%d,\"root\":%d", m->opt.disableflags, root);
  printf(",\"sparse\":%s", mj_isSparse(m) ? "true" : "false");
  printf(",\"meaninertia\":");
  num(m->stat.meaninertia);

  printf(",\"bodies\":[");
  for (int b = 0; b < m->nbody; b++) {
    if (b) putchar(',');
    printf("{\"name\":");
    str(name(m, mjOBJ_BODY, b));
    printf(",\"parent\":%d,\"mass\":", m->body_parentid[b]);
    num(m->body_mass[b]);
    printf(",\"inertia\":");
    arr(m->body_inertia + 3 * b, 3);
    printf(",\"ipos\":");
    arr(m->body_ipos + 3 * b, 3);
    printf(",\"iquat\":");
    arr(m->body_iquat + 4 * b, 4);
    printf(",\"pos\":");
    arr(m->body_pos + 3 * b, 3);
    printf(",\"quat\":");
    arr(m->body_quat + 4 * b, 4);
    printf(",\"xpos\":");
    arr(d->xpos + 3 * b, 3);
    printf(",\"xquat\":");
    arr(d->xquat + 4 * b, 4);
    printf(",\"invweight0\":");
    arr(m->body_invweight0 + 2 * b, 2);
    printf(",\"jntadr\":%d,\"jntnum\":%d}", m->body_jntadr[b], m->body_jntnum[b]);
  }
  printf("]");

  static const char* jntNames[] = {"free", "ball", "slide", "hinge"};
  printf(",\"joints\":[");
  for (int j = 0; j < m->njnt; j++) {
    if (j) putchar(',');
    printf("{\"name\":");
    str(name(m, mjOBJ_JOINT, j));
    int t = m->jnt_type[j];
    printf(",\"type\":\"%s\",\"body\":%d,\"qposadr\":%d,\"dofadr\":%d,\"limited\":%d,\"range\":",
           t >= 0 && t < 4 ? jntNames[t] : "?", m->jnt_bodyid[j], m->jnt_qposadr[j], m->jnt_dofadr[j],
           m->jnt_limited[j]);
    arr(m->jnt_range + 2 * j, 2);
    printf(",\"pos\":");
    arr(m->jnt_pos + 3 * j, 3);
    printf(",\"axis\":");
    arr(m->jnt_axis + 3 * j, 3);
    printf(",\"damping\":");
    num(m->dof_damping[m->jnt_dofadr[j]]);
    printf(",\"armature\":");
    num(m->dof_armature[m->jnt_dofadr[j]]);
    printf(",\"stiffness\":");
    num(m->jnt_stiffness[j]);
    printf(",\"frictionloss\":");
    num(m->dof_frictionloss[m->jnt_dofadr[j]]);
    putchar('}');
  }
  printf("]");

  static const char* sensNames[] = {
      "touch",          "accelerometer",  "velocimeter",    "gyro",          "force",         "torque",
      "magnetometer",   "rangefinder",    "jointpos",       "jointvel",      "tendonpos",     "tendonvel",
      "actuatorpos",    "actuatorvel",    "actuatorfrc",    "ballquat",      "ballangvel",    "jointlimitpos",
      "jointlimitvel",  "jointlimitfrc",  "tendonlimitpos", "tendonlimitvel", "tendonlimitfrc", "framepos",
      "framequat",      "framexaxis",     "frameyaxis",     "framezaxis",    "framelinvel",   "frameangvel",
      "framelinacc",    "frameangacc",    "subtreecom",     "subtreelinvel", "subtreeangmom", "clock",
      "user"};
  const int nSensNames = (int)(sizeof sensNames / sizeof sensNames[0]);
  printf(",\"sensors\":[");
  for (int i = 0; i < m->nsensor; i++) {
    if (i) putchar(',');
    printf("{\"name\":");
    str(name(m, mjOBJ_SENSOR, i));
    int t = m->sensor_type[i];
    printf(",\"type\":\"%s\",\"objid\":%d,\"adr\":%d,\"dim\":%d}", t >= 0 && t < nSensNames ? sensNames[t] : "?",
           m->sensor_objid[i], m->sensor_adr[i], m->sensor_dim[i]);
  }
  printf("]");

  static const char* dynNames[] = {"none", "integrator", "filter", "muscle", "user"};
  static const char* gainNames[] = {"fixed", "affine", "muscle", "user"};
  static const char* biasNames[] = {"none", "affine", "muscle", "user"};
  printf(",\"actuators\":[");
  for (int i = 0; i < m->nu; i++) {
    if (i) putchar(',');
    printf("{\"name\":");
    str(name(m, mjOBJ_ACTUATOR, i));
    printf(",\"dyntype\":\"%s\",\"gaintype\":\"%s\",\"biastype\":\"%s\",\"trntype\":%d,\"trnid\":%d,\"ctrllimited\":%d",
           dynNames[m->actuator_dyntype[i]], gainNames[m->actuator_gaintype[i]], biasNames[m->actuator_biastype[i]],
           m->actuator_trntype[i], m->actuator_trnid[2 * i], m->actuator_ctrllimited[i]);
    printf(",\"ctrlrange\":");
    arr(m->actuator_ctrlrange + 2 * i, 2);
    printf(",\"gear\":");
    arr(m->actuator_gear + 6 * i, 6);
    printf(",\"dynprm\":");
    arr(m->actuator_dynprm + mjNDYN * i, 3);
    printf(",\"gainprm\":");
    arr(m->actuator_gainprm + mjNGAIN * i, 9);
    printf(",\"biasprm\":");
    arr(m->actuator_biasprm + mjNBIAS * i, 9);
    printf(",\"lengthrange\":");
    arr(m->actuator_lengthrange + 2 * i, 2);
    printf(",\"acc0\":");
    num(m->actuator_acc0[i]);
    printf(",\"length0\":");
    num(m->actuator_length0[i]);
    putchar('}');
  }
  printf("],\"na\":%d", m->na);

  printf(",\"qpos0\":");
  arr(m->qpos0, m->nq);
  printf(",\"qinit\":");
  arr(d->qpos, m->nq);
  printf(",\"vinit\":");
  arr(d->qvel, m->nv);

  mjtNum* full = (mjtNum*)calloc((size_t)m->nv * m->nv + 1, sizeof(mjtNum));
  if (!full) die("out of memory", "");
  mj_fullM(m, full, d->qM);
  printf(",\"M\":");
  arr(full, m->nv * m->nv);
  free(full);

  // Steps with zero control. Contacts are those found by the collision
  // detection of each step (d->contact after mj_step describes the state
  // before the step's update: positions of the step's start).
  double firstContact = -1, peak = 0;
  int peakStep = -1, maxCon = 0;
  mjtNum* warm = (mjtNum*)calloc((size_t)m->nv + 1, sizeof(mjtNum));
  if (!warm) die("out of memory", "");
  printf(",\"steps\":[");
  record(m, d, root, 0);
  double pen;
  if (contacts(d, &pen) > 0) firstContact = d->time;
  if (pen > peak) peak = pen, peakStep = 0;
  for (int s = 1; s <= nsteps; s++) {
    setCtrl(m, d);
    capturing = s == stageStep;
    if (capturing) mjcb_control = captureStage;
    mj_step(m, d);
    if (capturing) {
      if (nstages > 0) stages[nstages - 1].qacc = dup(d->qacc, m->nv);
      capturing = 0;
      mjcb_control = NULL;
    }
    // Contacts of the new state. With PGS, whose answer depends on its
    // warm start (qacc_warmstart, which mj_forward overwrites), the warm
    // start is kept as the step left it: the trajectory is that of
    // mj_step alone, as Gymnasium steps it. With -keepwarm, so is Newton's
    // and CG's (which stop at their tolerance from it).
    stepIter = d->solver_iter;
    int keep = keepWarm || m->opt.solver == mjSOL_PGS;
    if (keep) mju_copy(warm, d->qacc_warmstart, m->nv);
    mj_forward(m, d);
    if (keep) mju_copy(d->qacc_warmstart, warm, m->nv);
    int n = contacts(d, &pen);
    if (n > maxCon) maxCon = n;
    if (n > 0 && firstContact < 0) firstContact = d->time;
    if (pen > peak) peak = pen, peakStep = s;
    if ((every > 0 && s % every == 0) || s == nsteps) {
      putchar(',');
      record(m, d, root, s);
    }
  }
  putchar(']');
  free(warm);
  if (stageStep > 0) printStages(m);
  printf(",\"first_contact\":");
  num(firstContact);
  printf(",\"peak_penetration\":");
  num(peak);
  printf(",\"peak_step\":%d,\"max_contacts\":%d,\"warnings\":{", peakStep, maxCon);
  static const char* warnNames[] = {"inertia", "contactfull", "cnstrfull", "vgeomfull", "badqpos",
                                    "badqvel", "badqacc", "badctrl"};
  int first = 1;
  for (int w = 0; w < mjNWARNING && w < 8; w++) {
    if (d->warning[w].number == 0) continue;
    printf(first ? "\"%s\":%d" : ",\"%s\":%d", warnNames[w], d->warning[w].number);
    first = 0;
  }
  printf("}}\n");
  (void)iarr;
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
