import { useTranslation } from "#app/lib/i18n.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import { dateLocale, excerpt, formatDate, isoDate, numberLocale } from "#domain/format.ts";
import { LANGUAGE_PREFIX } from "#domain/addresses.ts";
import { entryAnchor, entryText, type LiveEntry } from "#domain/live.ts";
import type { LivePageData } from "#domain/detail-view.ts";
import type { Language } from "#domain/language.ts";
import { LiveBadge, LiveEntryTemplate, LiveEntryView, TEMPLATE_ENTRY } from "./live-entry.tsx";

/** Characters of an entry's text in the key events' summary. */
const KEY_EVENT_TEXT = 140;

function KeyEventLink({ entry, lang }: { entry: LiveEntry; lang: Language }) {
  return (
    <a href={`#${entryAnchor(entry.id)}`} className="group flex gap-2 hover:text-desert-700" data-part="key-link">
      <time dateTime={isoDate(entry.at)} className="shrink-0 font-bold" data-part="key-at">
        {formatDate(entry.at, lang, "dateTime")}
      </time>
      <span dir="auto" className="group-hover:underline" data-part="key-text">
        {excerpt(entryText(entry.body), KEY_EVENT_TEXT)}
      </span>
    </a>
  );
}

/**
 * A coverage's live blog (issue 44), under its introduction's lead: the state (the «مباشر» badge, or the times
 * it started and ended), the key events' summary, the pinned entry, then the entries newest first. The page is
 * complete without JavaScript (a link to refresh it, a link to older entries); app/enhance/live.js keeps it
 * current from the stream, reading its addresses and cursor from the list's data attributes.
 */
export function LiveSection({ live, path }: { live: LivePageData; path: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const local = useLocalPath();
  const entries = live.pinned ? [live.pinned, ...live.entries] : live.entries;
  return (
    <section className="mt-8" aria-labelledby="live-heading" data-testid="live-section" data-live={live.live ? "true" : "false"}>
      <div className="flex flex-wrap items-center gap-3 border-b-2 border-red-700 pb-2">
        <h2 id="live-heading" className="text-2xl font-bold">
          {t("live.heading")}
        </h2>
        {live.live && <LiveBadge />}
        {/* Shown by the script when the stream says the coverage ended while the page was open. */}
        <p className="text-sm font-bold text-ink-soft" data-live-ended="" hidden={live.live}>
          {t("live.ended")}
        </p>
      </div>
      <p className="mt-2 text-sm text-ink-soft" data-testid="live-times">
        {live.state.started_at && (
          <span>
            {t("live.startedAt")} <time dateTime={isoDate(live.state.started_at)}>{formatDate(live.state.started_at, lang, "dateTime")}</time>
          </span>
        )}
        {live.state.ended_at && (
          <span>
            {" · "}
            {t("live.endedAt")} <time dateTime={isoDate(live.state.ended_at)}>{formatDate(live.state.ended_at, lang, "dateTime")}</time>
          </span>
        )}
      </p>

      <nav aria-labelledby="live-key-heading" className="mt-5 rounded-lg bg-sand-100 p-4" data-testid="live-key-events" hidden={live.keyEvents.length === 0}>
        <h3 id="live-key-heading" className="mb-2 font-bold">
          {t("live.keyEvents")}
        </h3>
        <ol className="space-y-2 text-sm">
          {live.keyEvents.map((entry) => (
            <li key={entry.id} data-key-id={entry.id}>
              <KeyEventLink entry={entry} lang={lang} />
            </li>
          ))}
        </ol>
        <template data-live-key="">
          <li>
            <KeyEventLink entry={TEMPLATE_ENTRY} lang={lang} />
          </li>
        </template>
      </nav>

      {live.live && (
        <p className="mt-4 text-sm">
          {/* Without JavaScript, the way to see what was posted since; the script keeps the page current instead. */}
          <a href={local(path)} className="font-bold text-desert-700 underline" data-testid="live-refresh">
            {t("live.refresh")}
          </a>
        </p>
      )}

      {/* No height of its own: shown over the list, it never pushes what the reader is reading. */}
      <div className="sticky top-28 z-30 flex h-0 justify-center lg:top-40">
        <button
          type="button"
          hidden
          className="mt-2 h-10 rounded-full bg-red-700 px-5 font-bold text-white shadow-lg hover:bg-red-800"
          data-testid="live-new-button"
        >
          {t("live.newEntries")} (<span data-count="">0</span>)
        </button>
      </div>

      <div
        className="mt-4 divide-y divide-sand-200 [overflow-anchor:none]"
        data-testid="live-entries"
        data-live={live.live ? "true" : "false"}
        data-cursor={live.cursor}
        data-stream={LANGUAGE_PREFIX[lang] + live.streamPath}
        data-entries={LANGUAGE_PREFIX[lang] + live.entriesPath}
        data-prefix={LANGUAGE_PREFIX[lang]}
        data-poll-ms={live.pollMs}
        data-date-locale={dateLocale(lang)}
        data-number-locale={numberLocale(lang)}
      >
        {entries.map((entry) => (
          <LiveEntryView key={entry.id} entry={entry} lang={lang} />
        ))}
      </div>
      {entries.length === 0 && (
        <p className="py-6 text-ink-soft" data-live-empty="">
          {t("live.empty")}
        </p>
      )}
      {live.olderBefore !== null && (
        <p className="mt-6 text-center">
          <a
            href={`${local(path)}?before=${live.olderBefore}`}
            className="inline-flex rounded-md border border-sand-300 bg-white px-5 py-3 font-bold hover:bg-sand-100"
            data-testid="live-older"
          >
            {t("live.older")}
          </a>
        </p>
      )}
      <LiveEntryTemplate lang={lang} />
    </section>
  );
}
