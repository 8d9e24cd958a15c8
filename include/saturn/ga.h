/* saturn — the genetic optimiser of paper 003 (Yokota, Ootsu, Kojima 2022,
 * section 4.3): a gene is a vector of integers (per-node injection times
 * I_i in [0, max_value]); lower fitness is better. */
#ifndef SATURN_GA_H
#define SATURN_GA_H

#include <stddef.h>
#include <stdint.h>

#include "saturn/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct saturn_ga_params {
    uint32_t genes;              /* population size (paper: 50) */
    uint32_t members;            /* gene length (one member per node) */
    int64_t max_value;           /* members are drawn from [0, max_value] */
    uint32_t generations;        /* generations to run */
    uint32_t crossover_interval; /* i_c: crossover instead of mutation every i_c generations */
    double crossover_rate;       /* r_c: a member is taken from the other parent with this probability */
    double mutation_rate;        /* r_m: a member is re-drawn with this probability */
    int64_t mutation_step;       /* 0: a mutated member is re-drawn from [0, max_value]; s > 0:
                                    it moves by a non-zero step drawn from [-s, s], clipped */
    uint32_t lifetime;           /* lt: a gene older than this many generations is re-drawn (0: off) */
    uint32_t watchdog;           /* wd: no new best for this many generations re-draws every gene (0: off) */
    uint64_t seed;
    int init_all;                /* every gene starts as `initial` (else only gene 0; the rest random) */
};

/* Evaluate n genes (each `members` long), writing fitness[i] (lower is
 * better). Must be deterministic; may evaluate in parallel. */
typedef void (*saturn_ga_eval_fn)(void *user, const int64_t *const *genes, size_t n,
                                  double *fitness);
typedef void (*saturn_ga_progress_fn)(void *user, uint32_t generation, double best);

struct saturn_ga_result {
    int64_t *best;          /* members values (caller frees) */
    double best_fitness;
    double initial_fitness; /* of `initial`, when one was given */
    uint32_t best_generation;
    uint64_t evaluations;
};

/* Runs the GA. `initial` (optional, `members` long) is placed in the first
 * population and evaluated: the result is never worse than it. */
int saturn_ga_run(const struct saturn_ga_params *p, const int64_t *initial,
                  saturn_ga_eval_fn eval, void *eval_user, saturn_ga_progress_fn progress,
                  void *progress_user, struct saturn_ga_result *out, struct saturn_error *err);
void saturn_ga_result_free(struct saturn_ga_result *r);

#ifdef __cplusplus
}
#endif
#endif
