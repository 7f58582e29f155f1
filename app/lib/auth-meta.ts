import type { MetaDescriptor } from "react-router";
import { rootData } from "./seo.ts";
import { translationsOf } from "./root-data.ts";

type Match = { id: string; data: unknown } | undefined;

function lookup(tree: unknown, key: string): string {
  let node = tree;
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string" ? node : key;
}

/**
 * Title of an account or back-office page, from the strings the root loader already sent; these pages are
 * personal, so search engines are asked not to index them.
 */
export function authMeta(matches: readonly Match[], titleKey: string): MetaDescriptor[] {
  const root = rootData(matches);
  const title = lookup(translationsOf(root), titleKey);
  const siteName = (root?.lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  return [{ title: siteName ? `${title} | ${siteName}` : title }, { name: "robots", content: "noindex, nofollow" }];
}

/**
 * The headers of the account pages, personal and with one-time tokens in the address: never cached, and the
 * address never sent to another site. A refused sign-in keeps the Retry-After its action set.
 */
export function accountHeaders({ loaderHeaders, actionHeaders }: { loaderHeaders: Headers; actionHeaders: Headers }): Headers {
  const h = new Headers(loaderHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) h.set("Retry-After", retryAfter);
  h.set("Cache-Control", "no-store");
  // same-origin, not no-referrer: with no-referrer a form post carries "Origin: null" and fails the origin check.
  h.set("Referrer-Policy", "same-origin");
  return h;
}
