import { handleApi } from "#server/http/api.server.ts";
import { NotFoundError } from "#server/http/errors.server.ts";

/**
 * Any /api/ path no endpoint answers: 404 in the APIs' one error shape (docs/api-errors.md), not the
 * site's HTML 404 page, whatever the method.
 */
function notFound({ request }: { request: Request }) {
  return handleApi("api not found", () => {
    throw new NotFoundError(`No endpoint at ${new URL(request.url).pathname}.`);
  });
}

export const loader = notFound;
export const action = notFound;
