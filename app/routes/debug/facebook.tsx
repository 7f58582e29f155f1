import { data, useRevalidator } from "react-router";
import type { Route } from "./+types/facebook";
import { AdminError } from "#app/components/admin/guard.tsx";
import { languageOfRequest } from "#server/http/language.server.ts";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import { requireAdmin } from "#server/auth/session.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { socialDebugReport, type DebugCheck } from "#server/social/debug.server.ts";

/**
 * The social API debugger (public-site.md §2 "Debug page"). The original was open to anyone; here only an
 * administrator reaches it, checked by this loader (docs/decisions/0060-social-feed.md). It shows the token's
 * length, never the token; when Meta refused, what Meta said and what to change.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const report = await socialDebugReport();
  return data({ ...report, title: translate(languageOfRequest(request), "social.debug.title") }, { headers: { "Cache-Control": "private, no-store" } });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

export const meta: Route.MetaFunction = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex, nofollow" }];

const CHECKS: DebugCheck[] = ["token", "page", "posts"];

export default function FacebookDebug({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const count = useCount();
  const revalidator = useRevalidator();
  const { configured, pageId, graphUrl, graphVersion, tokenLength, result } = loaderData;
  const refusal = result?.refusal;
  // Meta's own fields, under Meta's own names: what an administrator quotes to Meta or searches for.
  const said: [string, string | number | null][] = refusal
    ? [
        ["code", refusal.meta.code],
        ["error_subcode", refusal.meta.subcode],
        ["type", refusal.meta.type],
        ["message", refusal.meta.message],
        ["fbtrace_id", refusal.meta.fbtraceId],
        ["version", refusal.version],
        ["HTTP", refusal.status],
      ]
    : [];
  const running = revalidator.state === "loading";
  const fields: [string, string | number | boolean | undefined][] = result
    ? [
        ["success", result.success],
        ["error", result.error],
        ["details", result.details],
        ["message", result.message],
        ["postsCount", result.postsCount],
      ]
    : [];
  return (
    <section className="mx-auto max-w-3xl px-4 py-8" data-testid="social-debug" aria-busy={running}>
      <h1 className="text-3xl font-bold">{t("social.debug.title")}</h1>
      <p className="mt-2 text-ink-soft">{t("social.debug.intro")}</p>

      <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 rounded-xl border border-sand-200 bg-white p-4">
        <dt className="font-bold">{t("social.debug.pageId")}</dt>
        <dd dir="ltr" className="text-start" data-testid="debug-page-id">
          {pageId ?? "—"}
        </dd>
        <dt className="font-bold">{t("social.debug.graphUrl")}</dt>
        <dd dir="ltr" className="text-start break-all">
          {graphUrl}
        </dd>
        <dt className="font-bold">{t("social.debug.graphVersion")}</dt>
        <dd dir="ltr" className="text-start" data-testid="debug-graph-version">
          {graphVersion}
        </dd>
        <dt className="font-bold">{t("social.debug.token")}</dt>
        <dd data-testid="debug-token-length" data-length={tokenLength}>
          {tokenLength ? count("social.debug.tokenLength", tokenLength) : t("social.debug.noToken")}
        </dd>
      </dl>

      {!configured || !result ? (
        <p className="mt-6 rounded-xl border border-dashed border-sand-300 p-6 text-center" data-testid="debug-not-configured">
          {t("social.notConfigured")}
        </p>
      ) : (
        <>
          <ol className="mt-6 flex flex-col gap-2" data-testid="debug-checks">
            {CHECKS.map((check, i) => {
              const ran = result.checks.find((c) => c.check === check);
              const status = ran ? (ran.ok ? "passed" : "failed") : "skipped";
              return (
                <li
                  key={check}
                  className="flex items-center justify-between rounded-lg border border-sand-200 bg-white px-4 py-2"
                  data-check={check}
                  data-status={status}
                >
                  <span>
                    {i + 1}. {t(`social.debug.check_${check}`)}
                  </span>
                  <span className={status === "passed" ? "font-bold text-palm-700" : status === "failed" ? "font-bold text-red-700" : "text-ink-soft"}>
                    {t(`social.debug.${status}`)}
                  </span>
                </li>
              );
            })}
          </ol>
          <div
            role={result.success ? "status" : "alert"}
            className={`mt-6 rounded-xl border p-4 ${result.success ? "border-palm-600 bg-green-50" : "border-red-300 bg-red-50"}`}
            data-testid="debug-result"
            data-success={result.success}
          >
            <Facts entries={fields} attribute="data-field" />
          </div>
          {refusal ? (
            <section
              className="mt-6 rounded-xl border border-red-300 bg-white p-4"
              data-testid="debug-meta"
              data-kind={refusal.kind}
              aria-labelledby="debug-meta-title"
            >
              <h2 id="debug-meta-title" className="text-xl font-bold">
                {t("social.debug.metaTitle")}
              </h2>
              <p className="mt-2" data-testid="debug-meta-explanation">
                {t(`social.debug.explain.${refusal.kind}`, { version: refusal.version })}
              </p>
              <Facts entries={said} attribute="data-meta" className="mt-4" />
            </section>
          ) : null}
        </>
      )}

      <a
        href="/debug/facebook"
        onClick={(e) => {
          e.preventDefault();
          void revalidator.revalidate();
        }}
        className="mt-6 inline-block rounded-md bg-desert-600 px-5 py-2.5 font-bold text-white hover:bg-desert-700"
        data-testid="debug-run"
      >
        {running ? t("social.debug.running") : t("social.debug.runAgain")}
      </a>
    </section>
  );
}

/** Name–value pairs as Meta and the check report them (in English, left to right), empty ones left out. */
function Facts({
  entries,
  attribute,
  className = "",
}: {
  entries: [string, string | number | boolean | null | undefined][];
  attribute: "data-field" | "data-meta";
  className?: string;
}) {
  return (
    <dl className={`grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 ${className}`}>
      {entries
        .filter(([, value]) => value !== undefined && value !== null && value !== "")
        .map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="font-bold" dir="ltr">
              {name}
            </dt>
            <dd lang="en" dir="ltr" className="text-start break-words" {...{ [attribute]: name }}>
              {String(value)}
            </dd>
          </div>
        ))}
    </dl>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
