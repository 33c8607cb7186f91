/*
 * bounds.h -- cheap bounds on the value of a trick-boundary position
 * (internal): the thirds still in play, and the sure winners the side on
 * lead can cash.
 */
#ifndef CS_BOUNDS_H
#define CS_BOUNDS_H

#include "position.h"

/* Internal: not exported from the shared object (direct calls and
 * data access, no PLT/GOT). */
#pragma GCC visibility push(hidden)

/* Thirds still to be won: the cards in the hands, the current trick and
 * the last-trick bonus. */
static inline int bd_remaining(const pos_t *p) { return pos_remaining(p); }

/* Bounds on the soloist's thirds from a trick-boundary position (ntrick
 * 0) whose remaining thirds are `rem`: *lb <= value <= *ub. */
void bd_quick(const pos_t *p, int rem, int *lb, int *ub);

/* Lower bound on the thirds the side of the player on lead wins by cashing
 * their sure winners (top cards, and the low cards of a suit the others
 * will be void in); *tricks receives the number of such tricks. */
int bd_cash(const pos_t *p, int *tricks);

#pragma GCC visibility pop

#endif /* CS_BOUNDS_H */
