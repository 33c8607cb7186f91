/*
 * contract.h -- the contract-minded decision's tables (internal): the
 * binomials of its layout counting, filled once with the other tables.
 */
#ifndef CS_CONTRACT_H
#define CS_CONTRACT_H

/* Internal: not exported from the shared object (direct calls and
 * data access, no PLT/GOT). */
#pragma GCC visibility push(hidden)

/* Fills the binomials (through cs_tables_init, tables.h). */
void contract_tables_init(void);

#pragma GCC visibility pop

#endif /* CS_CONTRACT_H */
