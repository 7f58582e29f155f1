import type { ReactNode } from "react";
import { isRouteErrorResponse, Outlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/layout";
import type { RootLoaderData } from "#app/root.tsx";
import { Header } from "#app/components/layout/header.tsx";
import { Footer } from "#app/components/layout/footer.tsx";
import { ErrorScreen, notFoundMeta } from "#app/components/layout/error-screens.tsx";

/** The header and footer around every public page, also around its 404 and error screens. */
function PublicChrome({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<RootLoaderData>("root");
  const lang = root?.lang ?? "ar";
  const site = root?.site;
  const siteName = (lang === "ar" ? site?.siteName : site?.siteNameFr) ?? "صحراء ميديا";
  const logoUrl = site?.logoUrl ?? "/brand/logo.svg";
  const logoFallbackUrl = site?.logoFallbackUrl ?? "/brand/logo-alt.svg";
  return (
    <div className="flex min-h-screen flex-col">
      <Header lang={lang} siteName={siteName} logoUrl={logoUrl} logoFallbackUrl={logoFallbackUrl} signedIn={Boolean(root?.user)} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer
        siteName={siteName}
        logoUrl={logoUrl}
        logoFallbackUrl={logoFallbackUrl}
        social={site?.social ?? { facebook: null, twitter: null, instagram: null, youtube: null }}
        year={root?.year ?? new Date().getFullYear()}
      />
    </div>
  );
}

/**
 * A page whose loader answered 404 (an unknown or unpublished item) renders this layout's boundary, so its
 * title is this route's: the 404 page's. Otherwise the root's, as a page without a meta of its own had.
 */
export const meta: Route.MetaFunction = ({ error, matches }) =>
  isRouteErrorResponse(error) && error.status === 404 ? notFoundMeta(matches) : (matches.find((m) => m?.id === "root")?.meta ?? []);

export default function PublicLayout() {
  return (
    <PublicChrome>
      <Outlet />
    </PublicChrome>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <PublicChrome>
      <ErrorScreen error={error} />
    </PublicChrome>
  );
}
