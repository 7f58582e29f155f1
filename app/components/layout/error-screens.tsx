import { useEffect, useState } from "react";
import { isRouteErrorResponse, useLocation, type MetaDescriptor } from "react-router";
import { Link } from "#app/lib/link.tsx";
import { useTranslation } from "#app/lib/i18n.ts";
import { rootData } from "#app/lib/seo.ts";
import { translationsOf } from "#app/lib/root-data.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import { documentErrorNumber, errorScreenShown, failedDataRequestId, makeErrorNumber, useRequestId, type ErrorNumberSource } from "#app/lib/request-id.ts";

/**
 * The number a reader quotes to support: the failing request's id when a server request failed, which is on the
 * server's log lines of the failure (app/lib/request-id.ts says where each comes from).
 */
function useErrorNumber(): { number: string; source: ErrorNumberSource } {
  const rendering = useRequestId();
  const { pathname } = useLocation();
  const [chosen] = useState((): { number: string; source: ErrorNumberSource } => {
    const fromServer = rendering || documentErrorNumber();
    if (fromServer) return { number: fromServer, source: "server" };
    const fromRequest = failedDataRequestId(pathname);
    if (fromRequest) return { number: fromRequest, source: "request" };
    return { number: makeErrorNumber(), source: "browser" };
  });
  useEffect(errorScreenShown, []);
  return chosen;
}

// Arabic defaults: these screens may render when the root loader (and so the translations) failed.
const FALLBACK: Record<string, string> = {
  "errors.notFoundTitle": "الصفحة غير موجودة",
  "errors.notFoundText": "عذراً، لم نجد الصفحة التي تبحث عنها. ربما نُقلت أو حُذفت.",
  "errors.backHome": "العودة إلى الرئيسية",
  "errors.genericTitle": "حدث خطأ غير متوقع",
  "errors.genericText": "نعتذر عن هذا الخلل. يمكنك إعادة تحميل الصفحة أو العودة إلى الرئيسية.",
  "errors.errorNumber": "رقم الخطأ",
  "errors.quoteNumber": "يرجى ذكر هذا الرقم عند التواصل مع الدعم.",
  "errors.reload": "إعادة التحميل",
  "requestRefused.title": "الطلب مرفوض",
  "adminShell.crossOrigin": "تم رفض الطلب لأنه لم يصدر من هذا الموقع.",
};

/**
 * The 404 page's <title> in the reader's language ("الصفحة غير موجودة | صحراء ميديا", "Page introuvable | …"):
 * the words a screen reader announces and a tab shows, not a bare "404". Not for search engines.
 */
export function notFoundMeta(matches: Parameters<typeof rootData>[0]): MetaDescriptor[] {
  const root = rootData(matches);
  const errors = (translationsOf(root) as { errors?: Record<string, unknown> }).errors;
  const text = errors?.notFoundTitle;
  const title = typeof text === "string" ? text : FALLBACK["errors.notFoundTitle"];
  const site = root ? (root.lang === "ar" ? root.site.siteName : root.site.siteNameFr) : "";
  return [{ title: site ? `${title} | ${site}` : title }, { name: "robots", content: "noindex" }];
}

function useErrorText() {
  const { t, ready } = useTranslation();
  return (key: string) => {
    const value = ready ? t(key) : key;
    return value === key ? (FALLBACK[key] ?? key) : value;
  };
}

export function NotFound() {
  const text = useErrorText();
  const local = useLocalPath();
  return (
    <section className="mx-auto max-w-2xl px-4 py-20 text-center" data-testid="not-found">
      <p className="text-7xl font-bold text-desert-600" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-3xl font-bold">{text("errors.notFoundTitle")}</h1>
      <p className="mt-3 text-lg text-ink-soft">{text("errors.notFoundText")}</p>
      <Link to={local("/")} className="mt-8 inline-block rounded-md bg-desert-600 px-5 py-3 font-bold text-white hover:bg-desert-700">
        {text("errors.backHome")}
      </Link>
    </section>
  );
}

export function GeneralError({ error }: { error: unknown }) {
  const text = useErrorText();
  const local = useLocalPath();
  const { number: errorNumber, source } = useErrorNumber();
  useEffect(() => console.error(`[error ${errorNumber}]`, error), [errorNumber, error]);
  return (
    <section className="mx-auto max-w-2xl px-4 py-20 text-center" data-testid="error-screen" role="alert">
      <h1 className="text-3xl font-bold">{text("errors.genericTitle")}</h1>
      <p className="mt-3 text-lg text-ink-soft">{text("errors.genericText")}</p>
      <p className="mt-6">
        {text("errors.errorNumber")}:{" "}
        <code
          className="rounded bg-sand-100 px-2 py-1 font-mono text-lg tracking-widest"
          data-testid="error-number"
          data-error-source={source}
          dir="ltr"
          suppressHydrationWarning
        >
          {errorNumber}
        </code>
      </p>
      <p className="mt-2 text-sm text-ink-soft">{text("errors.quoteNumber")}</p>
      <div className="mt-8 flex justify-center gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-md bg-desert-600 px-5 py-3 font-bold text-white hover:bg-desert-700"
          data-testid="reload-button"
        >
          {text("errors.reload")}
        </button>
        <a href={local("/")} className="rounded-md border border-sand-300 px-5 py-3 font-bold hover:bg-sand-100" data-testid="home-button">
          {text("errors.backHome")}
        </a>
      </div>
    </section>
  );
}

/**
 * A form refused because it did not come from this site (the request guard's 403 `{"reason":"cross-origin"}`,
 * which a data request receives as text): what the reader sees is why, not "unexpected error" (issue 28).
 */
export function isCrossOriginRefusal(error: unknown): boolean {
  if (!isRouteErrorResponse(error) || error.status !== 403) return false;
  let body: unknown = error.data;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body);
    } catch {
      return false;
    }
  }
  return (body as { reason?: unknown } | null)?.reason === "cross-origin";
}

function CrossOriginRefused() {
  const text = useErrorText();
  const local = useLocalPath();
  return (
    <section className="mx-auto max-w-2xl px-4 py-20 text-center" data-testid="cross-origin-refused" role="alert">
      <h1 className="text-3xl font-bold">{text("requestRefused.title")}</h1>
      <p className="mt-3 text-lg text-ink-soft">{text("adminShell.crossOrigin")}</p>
      <div className="mt-8 flex justify-center gap-3">
        <a href={local("/")} className="rounded-md bg-desert-600 px-5 py-3 font-bold text-white hover:bg-desert-700">
          {text("errors.backHome")}
        </a>
      </div>
    </section>
  );
}

/** One boundary body for every route: 404 responses get the 404 page, anything else the error screen. */
export function ErrorScreen({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isCrossOriginRefusal(error)) return <CrossOriginRefused />;
  return <GeneralError error={error} />;
}
