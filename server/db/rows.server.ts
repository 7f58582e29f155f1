/**
 * The rows of a raw query (`db.execute(sql…)`). Both drivers answer an object with `rows` (node-postgres'
 * QueryResult, PGlite's Results), which drizzle's common type does not say: this is the one place that reads it.
 */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
