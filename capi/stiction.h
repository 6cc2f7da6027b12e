/*
 * stiction.h: the C API of Stiction, a rigid multibody physics engine.
 *
 * Build the shared library from the repository root with
 *     go build -buildmode=c-shared -o libstiction.so ./capi
 * and link with -lstiction. See docs/C_API.md.
 *
 * Objects (models, data, batches, snapshots) are opaque 64-bit handles,
 * > 0; a handle that was freed or never made is refused with
 * STICTION_E_HANDLE. Every function returns STICTION_OK (0) or an error
 * code; stiction_last_error() then holds the engine's message. No call
 * crashes the host process on bad input: handles, indices, sizes, names,
 * files and non-finite controls are checked, and an internal error of the
 * engine is reported as STICTION_E_INTERNAL.
 *
 * Array lifetimes: the qpos, qvel and ctrl arrays of a data (and of a
 * batch) are allocated with malloc when the data is made, stay at the same
 * address, and are valid until the data (batch) is freed; write them
 * between steps. The computed arrays (actuator forces, sensor values, body
 * poses, contacts) are filled by the call that returns them and are valid,
 * unchanged, until the next step, reset, load or free of that data.
 *
 * Threads: different data and batches may be used from different threads
 * at once; one object must not be used by two threads at once.
 */
#ifndef STICTION_H
#define STICTION_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. */
enum {
    STICTION_OK = 0,
    STICTION_E_HANDLE = 1,   /* a freed, unknown or wrong-kind handle */
    STICTION_E_ARG = 2,      /* a bad argument: NULL, index, size, name, non-finite value */
    STICTION_E_LOAD = 3,     /* a model or scene that cannot be read or built */
    STICTION_E_STEP = 4,     /* a step that failed (the state is unchanged) */
    STICTION_E_IO = 5,       /* a checkpoint file that cannot be written or read */
    STICTION_E_INTERNAL = 6  /* an engine bug, caught at the boundary */
};

/* Flags of stiction_model_load. */
enum { STICTION_GROUND = 1 }; /* add a ground plane to a robot model file */

/* Kinds of named things (stiction_model_name, stiction_model_index). */
enum {
    STICTION_BODY = 0,
    STICTION_JOINT = 1,    /* the joints of the moving bodies */
    STICTION_ACTUATOR = 2,
    STICTION_SENSOR = 3,
    STICTION_KEYFRAME = 4
};

/* Arrays of a data (stiction_data_array) and of a batch (stiction_batch_array). */
enum {
    STICTION_QPOS = 0,           /* nq generalized positions (writable) */
    STICTION_QVEL = 1,           /* nv generalized velocities (writable) */
    STICTION_CTRL = 2,           /* nu actuator inputs applied at the next step (writable) */
    STICTION_ACTUATOR_FORCE = 3, /* nu actuator forces over the last step (data only) */
    STICTION_SENSORDATA = 4,     /* nsensordata sensor values at the current state (data only) */
    STICTION_XPOSE = 5           /* 7 per body: world position x y z, quaternion w x y z (data only) */
};

typedef struct {
    int32_t nq, nv, nu;   /* positions, velocities, actuators */
    int32_t nbody;        /* bodies, the world not counted */
    int32_t njoint;       /* joints (of the moving bodies) */
    int32_t nsensor;      /* sensors */
    int32_t nsensordata;  /* sensor values */
    int32_t nkeyframe;    /* keyframes */
    double dt;            /* time step, s */
} stiction_sizes;

typedef struct {
    int32_t body;   /* the body the joint moves */
    int32_t parent; /* its parent body, -1 for the world */
    int32_t qadr, nq, vadr, nv; /* its coordinates in qpos and velocities in qvel */
} stiction_joint_info;

typedef struct {
    double mass;     /* kg */
    double com[3];   /* centre of mass in the body frame, m */
    int32_t joint;   /* the body's joint, -1 for a body welded to the world */
} stiction_body_info;

typedef struct {
    int32_t adr, dim; /* the sensor's values in STICTION_SENSORDATA */
} stiction_sensor_info;

typedef struct {
    int32_t body_a, body_b;  /* bodies, -1 for the world */
    int32_t geom_a, geom_b;  /* collision geometries */
    double pos[3];           /* world point, m */
    double normal[3];        /* world unit normal from A towards B */
    double dist;             /* signed distance, < 0 in penetration, m */
    double force[3];         /* force on B over the step (impulse / dt), world frame, N */
} stiction_contact;

typedef struct {
    int64_t step;            /* steps taken */
    double time;             /* s */
    int32_t contacts;        /* contact points of the last step */
    int32_t iterations;      /* solver iterations of the last step */
    int32_t status;          /* solver status of the last step, 0 converged */
    double momentum_error;   /* e_m of the last step */
    double complementarity_error;
    double kinetic_energy, potential_energy; /* J, at the end of the last step */
    double max_penetration;  /* m */
} stiction_stats;

#ifndef STICTION_NO_PROTOTYPES

const char *stiction_version(void);
/* The message of the last failed call (any thread); "" if none. Valid until the next failing call. */
const char *stiction_last_error(void);

/* Models: a robot file (.xml MJCF, .urdf, .sdf), a YAML scene, an embedded
 * scene name or an embedded://... model, with nsets "key=value" overrides. */
int stiction_model_load(const char *name, const char *const *sets, int nsets, int flags, int64_t *model);
int stiction_model_free(int64_t model);
int stiction_model_sizes(int64_t model, stiction_sizes *out);
/* The name is owned by the model and valid until stiction_model_free. */
int stiction_model_name(int64_t model, int kind, int index, const char **name);
int stiction_model_index(int64_t model, int kind, const char *name, int *index);
int stiction_model_joint(int64_t model, int joint, stiction_joint_info *out);
int stiction_model_body(int64_t model, int body, stiction_body_info *out);
int stiction_model_sensor(int64_t model, int sensor, stiction_sensor_info *out);

/* Data: one simulation of a model (its state, workspace and controls). */
int stiction_data_make(int64_t model, int64_t *data);
int stiction_data_free(int64_t data);
int stiction_data_step(int64_t data, int nsteps);
int stiction_data_reset(int64_t data);
int stiction_data_reset_keyframe(int64_t data, const char *keyframe);
int stiction_data_array(int64_t data, int which, double **ptr, int *len);
int stiction_data_contacts(int64_t data, const stiction_contact **ptr, int *n);
/* The statistics of the last step, gathered at this call (steps do not
 * gather them): the energies are those of the state now, so read them before
 * writing qpos or qvel. */
int stiction_data_stats(int64_t data, stiction_stats *out);
/* Checkpoints: files, or snapshots held in memory (handles). */
int stiction_data_save(int64_t data, const char *path);
int stiction_data_load(int64_t data, const char *path);
int stiction_data_snapshot(int64_t data, int64_t *snapshot);
int stiction_data_restore(int64_t data, int64_t snapshot);
int stiction_snapshot_free(int64_t snapshot);

/* Batches: n copies of a model stepped on workers threads (0: all cores);
 * bit-identical to stepping the copies one by one. */
int stiction_batch_make(int64_t model, int n, int workers, int64_t *batch);
int stiction_batch_free(int64_t batch);
/* ctrl: n*nu values copied into the batch's CTRL array first, or NULL. */
int stiction_batch_step(int64_t batch, const double *ctrl, int nsteps);
/* QPOS, QVEL, CTRL of all copies, contiguous: copy i at i*nq (nv, nu). */
int stiction_batch_array(int64_t batch, int which, double **ptr, int *len);
/* A data handle of copy i, owned by the batch (freed with it). */
int stiction_batch_data(int64_t batch, int i, int64_t *data);
/* Resets copy i, or every copy for i < 0. */
int stiction_batch_reset(int64_t batch, int i);

#endif /* STICTION_NO_PROTOTYPES */

#ifdef __cplusplus
}
#endif

#endif /* STICTION_H */
