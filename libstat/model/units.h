/* Units and the direction they imply (model/units.c), for every reader of files that may not
 * say which way is better. */
#ifndef TALLY_MODEL_UNITS_H
#define TALLY_MODEL_UNITS_H

#include "tally.h"

/* The direction a unit implies when a file does not say: higher is better for rates
 * (docs/formats.md lists the rule), lower otherwise. `unit` may be NULL. ASCII case-insensitive,
 * in any locale. */
tally_direction tally__direction_for_unit(const char *unit);

#endif /* TALLY_MODEL_UNITS_H */
