import type { Route } from "./+types/literature-types";
import { getDb } from "#server/db/client.server.ts";
import { z } from "zod/mini";
import { apiJson, handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import { LITERATURE_TYPES, listSectionChips } from "#server/content/sections.server.ts";

const Query = z.strictObject({});

/** GET /api/literature-types: the literature filter's types with their names, in editorial order. */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/literature-types", async () => {
    parseQuery(request, Query);
    const chips = await listSectionChips(await getDb(), "literature");
    const types = chips.filter((c) => (LITERATURE_TYPES as readonly string[]).includes(c.slug)).map((c) => ({ type: c.slug, name: c.name, nameFr: c.nameFr }));
    return apiJson({ types });
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);
