/* Uses a function of the experimental tier: builds only with TALLY_EXPERIMENTAL_API defined
 * (check_api_tiers.sh compiles it both ways). */
#include "tally.h"

int main(void)
{
    return tally_partition_summary_done(NULL);
}
