/* The history model (history.c) shared with its renderers (history_render.c, plot_history.c,
 * history_html.c). A history owns copies of everything it shows. */
#ifndef TALLY_HISTORY_INTERNAL_H
#define TALLY_HISTORY_INTERNAL_H

#include "util/internal.h"

typedef struct tally__hseries {
    char *benchmark, *case_name, *unit;
    tally_direction direction;
    size_t n;               /* points holding the case */
    size_t *point;          /* their history indexes, ascending */
    size_t *offsets;        /* n + 1: the runs of local point i are values[offsets[i] ..] */
    double *values;
    double *mean;           /* per local point */
    unsigned char *outlier; /* per local point */
    size_t outlier_count;
    tally_changepoint *cps; /* oldest first, history indexes */
    size_t cp_count;
    tally_trend trend;      /* `first` a history index */
} tally__hseries;

typedef struct tally__hchange {
    size_t series, k;
} tally__hchange;

struct tally_history {
    tally_history_options opts; /* strings not kept: order_by copied below */
    char *order_by;
    int git_order;              /* ordered by commit_order */
    size_t point_count;
    char **labels;
    char **commits;
    tally__hseries *series;
    size_t series_count;
    tally__hchange *changes;    /* newest first */
    size_t change_count;
};

/* The first point of the window the gate and the Markdown look at (opts.recent). */
size_t tally__history_recent_start(const tally_history *h, size_t recent);

/* Renderers (history_render.c, history_html.c). */
int tally__history_text(tally__buf *b, const tally_history *h);
int tally__history_json(tally__buf *b, const tally_history *h);
int tally__history_csv(tally__buf *b, const tally_history *h);
int tally__history_markdown(tally__buf *b, const tally_history *h);
int tally__history_html(tally__buf *b, const tally_history *h, int fragment);

/* The trend plot of one series (plot_history.c): its points with their run spread, the levels
 * of its segments, its change points, commits in each point's tooltip. */
void tally__plot_history(tally__buf *b, const tally_history *h, const tally__hseries *s);

#endif /* TALLY_HISTORY_INTERNAL_H */
