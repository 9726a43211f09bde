/* Appending many result sets at once (resultset.c): tally_results_add checks each new label
 * against every present one, which is quadratic in a list of thousands (a store's series of
 * 10,000 commits); a caller that has made the labels unique itself appends them in one step. */
#ifndef TALLY_RESULTS_APPEND_H
#define TALLY_RESULTS_APPEND_H

#include <stddef.h>

#include "tally.h"

/* Move the `n` sets of `sets` to the end of `into`, all or nothing; the list owns them on
 * TALLY_OK (TALLY_ENOMEM: nothing moved). The caller guarantees that their labels differ from
 * each other's and from those already in `into`. */
int tally__results_append_unique(tally_results *into, tally_resultset **sets, size_t n);

#endif /* TALLY_RESULTS_APPEND_H */
