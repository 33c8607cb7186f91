/*
 * key.h -- the normalised transposition-table key of a trick-boundary
 * position (internal).  The layout is documented in tt.h.
 */
#ifndef CS_KEY_H
#define CS_KEY_H

#include "position.h"
#include "tt.h"

/* Fills the lookup tables (after cs_tables_init; idempotent). */
void key_tables_init(void);

/* Key of `p` (ntrick must be 0).  With `canonical`, the four suit
 * signatures are sorted so suit permutations share the key; perm[i] is
 * then the real suit at canonical position i (the identity otherwise). */
void key_of(const pos_t *p, int canonical, tt_key *out, uint8_t perm[4]);

/* A move stored in the table (6 bits): canonical suit position * 16 + the
 * card's index from the top among the suit's remaining cards.  Suits with
 * equal signatures are interchangeable, so the encoding is well defined. */
static inline int key_encode_move(const pos_t *p, const uint8_t perm[4], int card) {
    int s = card / 10, r = card % 10;
    int j = 0;
    while (j < 3 && perm[j] != s) j++;
    uint32_t all = cs_suit_of_mask(pos_all(p), s);
    return j * 16 + cs_popcount10[(all >> (r + 1)) & CS_SUIT_ALL];
}

/* The card a stored move stands for in `p`, or -1 if none. */
static inline int key_decode_move(const pos_t *p, const uint8_t perm[4], int code) {
    int j = code >> 4, idx = code & 15;
    if (j > 3) return -1;
    int s = perm[j];
    uint32_t all = cs_suit_of_mask(pos_all(p), s);
    for (int k = 0; k < idx && all; k++) all &= ~(1u << cs_msb32(all));
    if (!all) return -1;
    return s * 10 + cs_msb32(all);
}

/* Signature of one suit (see tt.h): u = remaining cards of the suit
 * (10 bits), h1 / h2 = those held by the seats 1 and 2 after the soloist. */
uint32_t key_suit_signature(uint32_t u, uint32_t h1, uint32_t h2);

#endif /* CS_KEY_H */
