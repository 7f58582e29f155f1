/**
 * The database's type, apart from the module that opens it (./client.server.ts): what the modules the client
 * itself calls (the search triggers it syncs after migrating) need, without importing the client back (issue 41:
 * the import circle closed only by an `import type`). Types only.
 */
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type * as schema from "./schema.server.ts";

/** Both drivers expose the same query builder; this is the type the domain modules use. */
export type Database = NodePgDatabase<typeof schema>;
