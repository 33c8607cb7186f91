/*
 * stats.h -- search counters.  A node counter is always on (one increment
 * per node); the detailed counters exist only in builds with -DCS_STATS so
 * the fast build pays nothing for them.
 */
#ifndef CS_STATS_H
#define CS_STATS_H

#include <stdint.h>

#ifdef CS_STATS
#define CS_STAT_FIELDS uint64_t st_tt_cutoffs, st_bound_cutoffs;
#define CS_STAT_INC(s, field) ((s)->st_##field++)
#define CS_STATS_ENABLED 1
#else
#define CS_STAT_FIELDS
#define CS_STAT_INC(s, field) ((void)0)
#define CS_STATS_ENABLED 0
#endif

#endif /* CS_STATS_H */
