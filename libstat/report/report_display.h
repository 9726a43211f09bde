/* The report as text outputs show it on a terminal (report_display.c). Internal. */
#ifndef TALLY_REPORT_DISPLAY_H
#define TALLY_REPORT_DISPLAY_H

#include "report/report_internal.h"

/* A copy of `r` whose names, labels, units and metadata are escaped for a terminal (control
 * characters, DEL, C1 controls and bidirectional overrides shown as \xHH or \u{HHHH}); *out is
 * NULL when nothing needs escaping, and `r` itself is then what to render. Free the copy with
 * tally__report_for_terminal_free. */
int tally__report_for_terminal(tally_report **out, const tally_report *r);
void tally__report_for_terminal_free(tally_report *copy);

#endif /* TALLY_REPORT_DISPLAY_H */
