import { createContext, useContext, type ComponentProps } from "react";
import { Link as RouterLink } from "react-router";

/** Whether the document being rendered is a page without React in the browser (app/lib/static-page.ts); set by the root Layout. */
export const StaticDocumentContext = createContext(false);

/**
 * React Router's `<Link>`, but on a page that never hydrates a link to an absolute address is the `<a>` it would
 * become: no route resolution, no click handler, no prefetch logic. React Router's link computes all of that for
 * every one of a page's hundred-odd links (0.8 ms of a search page's render in the profiles, decision 0153), and
 * marks each `data-discover`, which only an application reads. Relative addresses, and every link of a page React
 * runs, stay React Router's.
 */
export function Link(props: ComponentProps<typeof RouterLink>) {
  const staticDocument = useContext(StaticDocumentContext);
  const { to, children, ...rest } = props;
  if (!staticDocument || typeof to !== "string" || !(to.startsWith("/") || /^https?:\/\//.test(to))) return <RouterLink {...props} />;
  const anchor: Record<string, unknown> = { ...rest };
  for (const name of ROUTER_ONLY_PROPS) delete anchor[name];
  return (
    <a {...(anchor as ComponentProps<"a">)} href={to}>
      {children}
    </a>
  );
}

/** What React Router's link reads for itself and does not put on its `<a>`. */
const ROUTER_ONLY_PROPS = ["reloadDocument", "replace", "state", "preventScrollReset", "relative", "viewTransition", "discover", "prefetch"];
