/* rp_sets.h - the range profiler's sets of names, by number (shared by
 * range_profiler.h and the object's insides, range_profiler_int.h). */
#ifndef GP_RP_SETS_H
#define GP_RP_SETS_H

/* FULL: every name (its first configuration, and the extras when one
 * configuration cannot take them all); ONE_PASS: the hardware names when they
 * fit in one pass; EXTRA + k: the k-th further configuration of FULL; ROT + k:
 * the k-th configuration of replay mode none (gp_rp_rotation_build): the one-pass
 * ones, then the stepped ones (gp_rp_is_stepped). */
enum gp_rp_set {
    GP_RP_FULL = 0,
    GP_RP_ONE_PASS = 1,
    GP_RP_EXTRA = 2,
    GP_RP_ROT = 18,
    GP_RP_MAX_ROT = 48,
    GP_RP_MAX_SETS = GP_RP_ROT + GP_RP_MAX_ROT
};

#endif
