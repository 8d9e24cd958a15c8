/* Parameters of the cup-stacking tools (paper 003): the genetic optimiser
 * of per-node injection times (saturn ga, ga.c) and the search for the
 * inter-slice interval (saturn cupstack). */
#include "saturn/config.h"

static const char *const fitness_names[] = {"height", "thickness", NULL};
static const char *const init_names[] = {"random", "unison", NULL};

const struct saturn_param cupstack_params[] = {
    {"ga.fitness", SATURN_PARAM_ENUM, "height", 0, 0, fitness_names,
     "what the GA minimises: height (the slice's duration t_d) or thickness (T_e, the longest "
     "first-to-last flit time of a link)"},
    {"ga.genes", SATURN_PARAM_INT, "50", 2, 100000, NULL, "population size"},
    {"ga.init", SATURN_PARAM_ENUM, "random", 0, 0, init_names,
     "first population: random (unison and random schedules) or unison (every gene unison; "
     "the search starts from it: the paper does not say)"},
    {"ga.generations", SATURN_PARAM_INT, "200", 1, 1e9, NULL, "generations to run"},
    {"ga.crossover_interval", SATURN_PARAM_INT, "100", 0, 1e9, NULL,
     "i_c: a crossover instead of the mutation every i_c generations (0: never)"},
    {"ga.crossover_rate", SATURN_PARAM_REAL, "0.4", 0, 1, NULL,
     "r_c: probability that a member is taken from the other parent"},
    {"ga.mutation_rate", SATURN_PARAM_REAL, "0.05", 0, 1, NULL,
     "r_m: probability that a member is re-drawn in a mutation"},
    {"ga.mutation_step", SATURN_PARAM_INT, "0", 0, 1e9, NULL,
     "0: a mutated member is re-drawn from [0, I_max]; s > 0: it moves by a step from -s..-1, "
     "1..s, clipped to [0, I_max] (a reading of the paper's 'changes their values')"},
    {"ga.lifetime", SATURN_PARAM_INT, "0", 0, 1e9, NULL,
     "lt: re-draw a gene older than this many generations (0: off)"},
    {"ga.watchdog", SATURN_PARAM_INT, "0", 0, 1e9, NULL,
     "wd: re-draw every gene after this many generations without a new best (0: off)"},
    {"cupstack.max_interval", SATURN_PARAM_INT, "0", 0, 1e7, NULL,
     "largest inter-slice interval tried (0: the unit slice's duration t_d)"},
    {"cupstack.step", SATURN_PARAM_INT, "1", 1, 1e6, NULL, "interval step"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};
