/*
 * example.c: load a scene, step it, read its state, controls and contacts,
 * take a snapshot, run a batch, and show the error reporting. See
 * docs/C_API.md; built and run by .ci/run:
 *
 *   go build -buildmode=c-shared -o build/libstiction.so ./capi
 *   cc -Icapi -o build/example examples/c/example.c -Lbuild -lstiction
 *   LD_LIBRARY_PATH=build build/example [scene or model file]
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "stiction.h"

/* check exits with the engine's message when a call fails. */
static void check(int rc, const char *what) {
    if (rc != STICTION_OK) {
        fprintf(stderr, "%s failed (code %d): %s\n", what, rc, stiction_last_error());
        exit(1);
    }
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "arm";
    int64_t model, data, snap, batch;
    stiction_sizes sz;
    check(stiction_model_load(name, NULL, 0, 0, &model), "load");
    check(stiction_model_sizes(model, &sz), "sizes");
    printf("%s: nq %d, nv %d, nu %d, bodies %d, dt %g s\n", name, sz.nq, sz.nv, sz.nu, sz.nbody, sz.dt);

    check(stiction_data_make(model, &data), "make data");
    double *qpos, *ctrl;
    int nq, nu;
    check(stiction_data_array(data, STICTION_QPOS, &qpos, &nq), "qpos");
    check(stiction_data_array(data, STICTION_CTRL, &ctrl, &nu), "ctrl");
    for (int i = 0; i < nu; i++) {
        const char *an;
        check(stiction_model_name(model, STICTION_ACTUATOR, i, &an), "actuator name");
        printf("actuator %d: %s, initial ctrl %g\n", i, an, ctrl[i]);
    }
    check(stiction_data_step(data, 100), "step");
    check(stiction_data_snapshot(data, &snap), "snapshot");
    check(stiction_data_step(data, 100), "step");
    double *q1 = malloc(nq * sizeof(double));
    for (int i = 0; i < nq; i++) q1[i] = qpos[i];
    check(stiction_data_restore(data, snap), "restore");
    check(stiction_data_step(data, 100), "step");
    int same = 1;
    for (int i = 0; i < nq; i++) same &= q1[i] == qpos[i];
    printf("after 200 steps q[%d] = %.6f; replayed from the snapshot: %.6f (%s)\n", nq - 1, q1[nq - 1], qpos[nq - 1], same ? "identical" : "DIFFERENT");
    free(q1);
    if (!same) return 1;

    stiction_stats st;
    check(stiction_data_stats(data, &st), "stats");
    const stiction_contact *con;
    int ncon;
    check(stiction_data_contacts(data, &con, &ncon), "contacts");
    printf("t = %.3f s, step %lld, %d contacts, e_m %.2e\n", st.time, (long long)st.step, ncon, st.momentum_error);

    /* Errors are codes and messages, never a crash. */
    int64_t bad;
    int rc = stiction_model_load("no/such/file.xml", NULL, 0, 0, &bad);
    printf("loading a missing file: code %d: %s\n", rc, stiction_last_error());
    if (nu > 0) {
        ctrl[0] = NAN;
        rc = stiction_data_step(data, 1);
        printf("NaN control: code %d: %s\n", rc, stiction_last_error());
        ctrl[0] = 0;
    }
    check(stiction_data_free(data), "free");
    rc = stiction_data_step(data, 1);
    printf("freed handle: code %d: %s\n", rc, stiction_last_error());

    /* A batch of 8 copies on all cores. */
    check(stiction_batch_make(model, 8, 0, &batch), "batch");
    double *bq;
    int nbq;
    check(stiction_batch_step(batch, NULL, 50), "batch step");
    check(stiction_batch_array(batch, STICTION_QPOS, &bq, &nbq), "batch qpos");
    printf("batch: copy 7 q[%d] = %.6f after 50 steps\n", sz.nq - 1, bq[7 * sz.nq + sz.nq - 1]);
    check(stiction_batch_free(batch), "free batch");
    check(stiction_snapshot_free(snap), "free snapshot");
    check(stiction_model_free(model), "free model");
    return 0;
}
