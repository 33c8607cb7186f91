/*
 * tables.h -- filling every lookup table of the core (internal): the card
 * tables of position.c, then the key's, then the table's, then the
 * binomials of contract.c, in that order.
 * Its own file so that position.c need not call up into key.c and tt.c,
 * which themselves read the card tables.
 */
#ifndef CS_TABLES_H
#define CS_TABLES_H

/* Internal: not exported from the shared object (direct calls and
 * data access, no PLT/GOT). */
#pragma GCC visibility push(hidden)

/* Fills the lookup tables: once, at library load (a constructor); later
 * calls (cs_solver_new and cs_goal_new make one) do nothing. */
void cs_tables_init(void);

#pragma GCC visibility pop

#endif /* CS_TABLES_H */
