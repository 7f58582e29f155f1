import { data } from "react-router";

/** A 1-based page number from a query string; null when absent. Throws a 400 for anything else. */
export function pageParam(url: URL, name = "page", max = 500): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return 1;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw data({ error: { code: "INVALID_PAGE", message: `The ${name} parameter must be a whole number from 1 to ${max}.` } }, { status: 400 });
  }
  return Number(raw);
}
