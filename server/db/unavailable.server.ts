/**
 * Whether an error means "the database cannot answer now" rather than "this request is wrong" or "our code is
 * wrong": the one test every answer uses to say 503 with Retry-After instead of 500 (the APIs' errorAnswer, the
 * pages' entry.server.tsx, the feeds' xmlFeed), decision 0135. Recognised along the error's `cause` chain (drizzle
 * wraps the driver's error) and inside an AggregateError (Node's connect to several addresses).
 */

/** How long a client is asked to wait before trying again while the database does not answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 30;

/** node-postgres's and pg-pool's own messages for a connection that is lost, never made, or a query never answered. */
const DRIVER_MESSAGES = [
  "Query read timeout", // query_timeout: the server said nothing
  "timeout exceeded when trying to connect", // no free connection in the pool within connectionTimeoutMillis
  "Connection terminated due to connection timeout", // a new connection not made within connectionTimeoutMillis
  "Connection terminated unexpectedly",
  "Connection terminated",
  "timeout expired", // a Client's own connectionTimeoutMillis
  "Client has encountered a connection error and is not queryable",
];

/** The socket's errors of a server that cannot be reached or went away. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * PostgreSQL's SQLSTATEs of the same: class 08 (connection exception), 57014 (statement_timeout cancelled the
 * statement), 57P01–57P05 (shut down, crashed, starting up, dropped, idle session time-out), 53300 (no
 * connection slot left), 25P03 (idle_in_transaction_session_timeout ended the session).
 */
const isUnavailableState = (code: string) => /^08[0-9A-Z]{3}$/.test(code) || /^57(014|P0[1-5])$/.test(code) || code === "53300" || code === "25P03";

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown): boolean => {
    if (!e || typeof e !== "object" || seen.has(e)) return false;
    seen.add(e);
    const { code, message, cause, errors } = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && (NETWORK_CODES.has(code) || isUnavailableState(code))) return true;
    if (typeof message === "string" && DRIVER_MESSAGES.includes(message)) return true;
    if (Array.isArray(errors) && errors.some(visit)) return true;
    return visit(cause);
  };
  return visit(error);
}
