/**
 * The largest id a row of a table with a serial id can have (PostgreSQL's `integer`): route schemas cap ids in
 * paths at it, since PostgreSQL refuses to compare an integer column with a larger number (a 500, not a 404).
 */
export const ROW_ID_MAX = 2_147_483_647;
