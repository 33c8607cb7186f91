/*
 * position.h -- bit-mask hands, card tables, make/unmake of single cards and
 * trick resolution (internal).
 */
#ifndef CS_POSITION_H
#define CS_POSITION_H

#include <stdint.h>

#include "calasolve.h"

/* Internal: not exported from the shared object (direct calls and
 * data access, no PLT/GOT). */
#pragma GCC visibility push(hidden)

#define CS_DECK ((UINT64_C(1) << CS_NUM_CARDS) - 1)
#define CS_SUIT_BITS 10
#define CS_SUIT_ALL 0x3FFu /* the 10 ranks of one suit */
#define CS_SUIT_MASK(s) ((uint64_t)CS_SUIT_ALL << (CS_SUIT_BITS * (s)))

/* Per-suit (10-bit) rank masks by point class. */
#define CS_RANKS_ZERO 0x00Fu /* 4 5 6 7: 0 thirds */
#define CS_RANKS_ONE 0x370u  /* F C R, 2 3: 1 third */
#define CS_RANKS_ACE 0x080u  /* A: 3 thirds */

extern const uint8_t cs_card_points[CS_NUM_CARDS];
extern uint8_t cs_suit_points[1 << CS_SUIT_BITS]; /* thirds of a 10-bit suit mask */
extern uint8_t cs_popcount10[1 << CS_SUIT_BITS];

/* Fills cs_suit_points and cs_popcount10 (through cs_tables_init, tables.h). */
void pos_tables_init(void);

/* Portable popcount: no -mpopcnt, so a SWAR count beats the libgcc call. */
static inline int cs_popcount(uint64_t x) {
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}
static inline int cs_msb(uint64_t x) { return 63 - __builtin_clzll(x); } /* x != 0 */
static inline int cs_lsb(uint64_t x) { return __builtin_ctzll(x); }     /* x != 0 */
static inline int cs_msb32(uint32_t x) { return 31 - __builtin_clz(x); }

static inline uint32_t cs_suit_of_mask(uint64_t m, int s) {
    return (uint32_t)(m >> (CS_SUIT_BITS * s)) & CS_SUIT_ALL;
}

/* Thirds of the cards of a mask. */
static inline int cs_mask_points(uint64_t m) {
    return cs_suit_points[m & CS_SUIT_ALL] + cs_suit_points[(m >> 10) & CS_SUIT_ALL] +
           cs_suit_points[(m >> 20) & CS_SUIT_ALL] + cs_suit_points[(m >> 30) & CS_SUIT_ALL];
}

static const uint8_t cs_next_seat[6] = {1, 2, 0, 1, 2, 0};
static const uint8_t cs_seat_mod3[6] = {0, 1, 2, 0, 1, 2};

/* The search position: the public position plus the third trick slot and
 * running point totals.  Layout: hand[3] (24 bytes), then nine one-byte
 * fields: trick[3], ntrick, leader, soloist, bonus, hand_pts, trick_pts
 * (40 bytes with padding). */
typedef struct {
    uint64_t hand[3];
    uint8_t trick[3];  /* trick[0] was led; entries >= ntrick are stale */
    uint8_t ntrick;    /* 0..2 between moves */
    uint8_t leader;
    uint8_t soloist;
    uint8_t bonus;
    uint8_t hand_pts;  /* thirds of the cards in the hands */
    uint8_t trick_pts; /* thirds of the cards of the current trick */
} pos_t;

/* What pos_make needs to undo a card. */
typedef struct {
    uint8_t card;
    uint8_t leader;    /* leader before the card */
    uint8_t completed; /* the card completed a trick */
    uint8_t t0, t1;    /* the trick's first two cards (deeper plays overwrite them) */
    uint8_t trick_pts; /* trick_pts before the card */
} undo_t;

static inline int pos_to_move(const pos_t *p) { return cs_seat_mod3[p->leader + p->ntrick]; }

static inline uint64_t pos_all(const pos_t *p) { return p->hand[0] | p->hand[1] | p->hand[2]; }

/* Index 0..2 in the trick of the card winning the first n cards. */
static inline int pos_trick_winner_index(const pos_t *p, int n) {
    int best = 0;
    int bc = p->trick[0];
    int suit = bc / 10;
    for (int i = 1; i < n; i++) {
        int c = p->trick[i];
        if (c / 10 == suit && c > bc) {
            bc = c;
            best = i;
        }
    }
    return best;
}

/* Plays `card` (held by the player to move).  If it completes the trick, the
 * trick is resolved: the winner leads next (ntrick back to 0).  Returns the
 * thirds the soloist gains from the completed trick (its cards, plus the
 * bonus if it was the last trick), 0 otherwise. */
static inline int pos_make(pos_t *p, int card, undo_t *u) {
    int player = pos_to_move(p);
    int cp = cs_card_points[card];
    u->card = (uint8_t)card;
    u->leader = p->leader;
    u->t0 = p->trick[0];
    u->t1 = p->trick[1];
    u->trick_pts = p->trick_pts;
    p->hand[player] &= ~(UINT64_C(1) << card);
    p->hand_pts = (uint8_t)(p->hand_pts - cp);
    p->trick[p->ntrick++] = (uint8_t)card;
    if (p->ntrick < 3) {
        p->trick_pts = (uint8_t)(p->trick_pts + cp);
        u->completed = 0;
        return 0;
    }
    u->completed = 1;
    int w = cs_seat_mod3[p->leader + pos_trick_winner_index(p, 3)];
    int pts = p->trick_pts + cp;
    p->trick_pts = 0;
    p->ntrick = 0;
    p->leader = (uint8_t)w;
    if (w != p->soloist) return 0;
    if (pos_all(p) == 0) pts += p->bonus;
    return pts;
}

static inline void pos_unmake(pos_t *p, const undo_t *u) {
    if (u->completed) {
        p->leader = u->leader;
        p->ntrick = 3;
        p->trick[0] = u->t0;
        p->trick[1] = u->t1;
    }
    p->ntrick--;
    p->trick_pts = u->trick_pts;
    p->hand_pts = (uint8_t)(p->hand_pts + cs_card_points[u->card]);
    p->hand[pos_to_move(p)] |= UINT64_C(1) << u->card;
}

/* Thirds still to be won: hands, current trick and the bonus. */
static inline int pos_remaining(const pos_t *p) { return p->hand_pts + p->trick_pts + p->bonus; }

/* Legal cards of the player to move. */
static inline uint64_t pos_legal(const pos_t *p) {
    uint64_t h = p->hand[pos_to_move(p)];
    if (p->ntrick == 0) return h;
    uint64_t f = h & CS_SUIT_MASK(p->trick[0] / 10);
    return f ? f : h;
}

/* Loads a public position (already range-checked). */
void pos_load(pos_t *p, const cs_position *in);

#pragma GCC visibility pop

#endif /* CS_POSITION_H */
