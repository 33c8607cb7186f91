/* tables.c -- filling the lookup tables of position.c, key.c and tt.c, once. */
#include "tables.h"
#include "contract.h"

#include "key.h"
#include "position.h"
#include "tt.h"

static int tables_ready = 0;

/* Run once when the library is loaded (GCC/Clang), before any thread can
 * use the tables; cs_solver_new and cs_goal_new call it again, a no-op then. */
__attribute__((constructor)) static void tables_at_load(void) { cs_tables_init(); }

void cs_tables_init(void) {
    if (tables_ready) return;
    pos_tables_init(); /* first: the key's and the table's are built from these */
    key_tables_init();
    tt_tables_init();
    contract_tables_init();
    tables_ready = 1;
}
