/*
 * solver_int.h -- what the other drivers (exchange.c) need of a solver
 * object: the set-up and the accounting of one API call (internal).
 */
#ifndef CS_SOLVER_INT_H
#define CS_SOLVER_INT_H

#include "calasolve.h"
#include "search.h"

#pragma GCC visibility push(hidden)

/* Prepares S to search `pos` with s's table and configuration (a new
 * table generation, fresh killers), as every API call does. */
void solver_begin(cs_solver *s, search_t *S, const cs_position *pos);
/* Records S's node and search counts as the solver's last call. */
void solver_end(cs_solver *s, const search_t *S);
/* The range checks of the API (every index the core uses stays in bounds). */
int solver_valid_position(const cs_position *pos);

#pragma GCC visibility pop

#endif /* CS_SOLVER_INT_H */
