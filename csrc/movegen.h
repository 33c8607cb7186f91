/*
 * movegen.h -- legal moves (follow suit), equivalence classes and move
 * ordering (internal).
 */
#ifndef CS_MOVEGEN_H
#define CS_MOVEGEN_H

#include <stdint.h>

#include "position.h"

/* Internal: not exported from the shared object (direct calls and
 * data access, no PLT/GOT). */
#pragma GCC visibility push(hidden)

#define CS_MAX_MOVES CS_NUM_CARDS

/* Generation flags. */
enum {
    MG_EQUIV = 1u, /* merge equivalent cards into one move */
    MG_ORDER = 2u, /* order the moves by the ordering heuristic */
    MG_LAZY = 4u   /* with MG_ORDER: only score; the caller picks with mg_pick */
};

/* One move: a representative card standing for its equivalence class.
 * Layout (16 bytes): members 8, card 1, pad 1, score 2, pad 4. */
typedef struct {
    uint64_t members; /* every card of the class (the card itself when MG_EQUIV is off) */
    uint8_t card;     /* the card to play (the lowest member) */
    int16_t score;    /* ordering score, higher first */
} cs_move;

/* Moves of the player to move; returns their number (0 if they hold no
 * card).  Two legal cards of the mover are equivalent when they are of the
 * same suit and point value and no live card of another hand (the cards of
 * the current trick count as live) lies between them in rank. */
int mg_generate(const pos_t *p, unsigned flags, cs_move *out);

/* Lazy ordering (MG_LAZY): swaps the best-scored of mv[i..n) into mv[i].
 * Most nodes cut off after the first move, so sorting all is wasted. */
static inline void mg_pick(cs_move *mv, int n, int i) {
    int b = i;
    for (int j = i + 1; j < n; j++)
        if (mv[j].score > mv[b].score) b = j;
    if (b != i) {
        cs_move t = mv[i];
        mv[i] = mv[b];
        mv[b] = t;
    }
}

/* Gives the move whose class holds `card` the score `score` (lazy ordering;
 * the killers get INT16_MAX and INT16_MAX - 1, above every heuristic score). */
static inline void mg_boost(cs_move *mv, int n, int card, int16_t score) {
    uint64_t b = UINT64_C(1) << card;
    for (int i = 0; i < n; i++)
        if (mv[i].members & b) {
            mv[i].score = score;
            return;
        }
}

#pragma GCC visibility pop

#endif /* CS_MOVEGEN_H */
