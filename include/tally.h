/**
 * @file tally.h
 * @brief tally: raw benchmark runs in, trustworthy comparisons out. Include this header only.
 */
#ifndef TALLY_H
#define TALLY_H

#include "tally/version.h"
#include "tally/common.h"
#include "tally/stats.h"
#include "tally/accum.h"
#include "tally/compare.h"
#include "tally/resultset.h"
#include "tally/io.h"
#include "tally/diagnose.h"
#include "tally/report.h"
#include "tally/noise.h"
#include "tally/validate.h"
#include "tally/runner.h"
#include "tally/syscheck.h"
#include "tally/store.h"

#endif /* TALLY_H */
