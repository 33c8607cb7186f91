/*
 * key.h -- the normalised transposition-table key of a trick-boundary
 * position (internal).  How the table uses it: tt.h.
 *
 * Per suit, over the remaining cards in rank order (lowest first):
 *   structure signature (17 bits): the owner sequence (owner = seat
 *     relative to the soloist, 0..2) as a bijective base-3 number,
 *     (3^n - 1) / 2 + sum(owner_i * 3^i) for n cards (< 88573);
 *   shape (7 bits): ((n0 * 4 + n1) * 2 + a) * 3 + n2 with n0 = cards left
 *     among 4 5 6 7 (0 thirds), n1 among F C R (1), a = the Ace left (3),
 *     n2 among 2 3 (1): since a rank's point class is fixed, the shape
 *     gives the class of every card of the sequence (0..119).
 * Structure (70 bits): s0 = sig[0] | sig[1] << 17 | sig[2] << 34 |
 *   (sig[3] & 0x1FFF) << 51; s1 = sig[3] >> 13 | leader_rel << 4, with
 *   leader_rel = (leader - soloist) mod 3.  With canonical suits the suits
 *   are sorted by (signature, shape) first; shapes follow their suit.
 */
#ifndef CS_KEY_H
#define CS_KEY_H

#include "position.h"
#include "tt.h"

/* Internal: not exported from the shared object (direct calls and
 * data access, no PLT/GOT). */
#pragma GCC visibility push(hidden)

/* Fills the lookup tables (after pos_tables_init: through cs_tables_init, tables.h). */
void key_tables_init(void);

/* Key of `p` (ntrick must be 0). */
void key_of(const pos_t *p, int canonical, tt_key *out);

/* Structure signature and shape of one suit: u = remaining cards of the
 * suit (10 bits), h1 / h2 = those held by the seats 1 and 2 after the
 * soloist. */
uint32_t key_suit_structure(uint32_t u, uint32_t h1, uint32_t h2);
uint32_t key_suit_shape(uint32_t u);

/* Thirds of the i-th lowest card of a suit of this shape (i < count). */
int key_shape_points(uint32_t shape, int i);
/* Number of cards of a suit of this shape. */
int key_shape_count(uint32_t shape);

#pragma GCC visibility pop

#endif /* CS_KEY_H */
