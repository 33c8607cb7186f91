/* position.c -- card tables and loading a public position. */
#include "position.h"

#include <string.h>

#define PTS_SUIT 0, 0, 0, 0, 1, 1, 1, 3, 1, 1
const uint8_t cs_card_points[CS_NUM_CARDS] = {PTS_SUIT, PTS_SUIT, PTS_SUIT, PTS_SUIT};

uint8_t cs_suit_points[1 << CS_SUIT_BITS];
uint8_t cs_popcount10[1 << CS_SUIT_BITS];

void pos_tables_init(void) {
    for (unsigned m = 0; m < (1u << CS_SUIT_BITS); m++) {
        unsigned pts = 0, n = 0;
        for (int r = 0; r < CS_SUIT_BITS; r++) {
            if (m >> r & 1) {
                pts += cs_card_points[r];
                n++;
            }
        }
        cs_suit_points[m] = (uint8_t)pts;
        cs_popcount10[m] = (uint8_t)n;
    }
}

void pos_load(pos_t *p, const cs_position *in) {
    memset(p, 0, sizeof *p);
    for (int i = 0; i < 3; i++) p->hand[i] = in->hands[i] & CS_DECK;
    p->ntrick = in->ntrick;
    for (int i = 0; i < in->ntrick && i < 2; i++) p->trick[i] = in->trick[i];
    p->leader = in->leader;
    p->soloist = in->soloist;
    p->bonus = in->last_bonus;
    p->hand_pts = (uint8_t)cs_mask_points(p->hand[0] | p->hand[1] | p->hand[2]);
    for (int i = 0; i < p->ntrick; i++) p->trick_pts = (uint8_t)(p->trick_pts + cs_card_points[p->trick[i]]);
}
