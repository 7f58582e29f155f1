import { useTranslation } from "#app/lib/i18n.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import { formatDate, isoDate } from "#domain/format.ts";
import { entryAnchor, type LiveEntry } from "#domain/live.ts";
import type { Language } from "#domain/language.ts";

/** The site's badge of a live coverage («مباشر»): on its page, its cards and the header's ticker. */
export function LiveBadge({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`inline-flex items-center gap-1.5 rounded bg-red-700 px-2 py-0.5 text-xs font-bold text-white ${className}`} data-testid="live-badge">
      <span aria-hidden="true" className="size-2 rounded-full bg-white motion-safe:animate-pulse" />
      {t("live.badge")}
    </span>
  );
}

/** Whether a card's item is live now: its card fields name a start and no end (domain/content-types/coverage.ts). */
export const cardIsLive = (card: { liveStartedAt?: unknown; liveEndedAt?: unknown }) => Boolean(card.liveStartedAt) && !card.liveEndedAt;

/** An embedded post's site, shown on its link card (no third-party script is ever loaded). */
const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
};

/**
 * One entry of a live coverage. app/enhance/live.js renders the entries that arrive from a copy of this markup
 * (the page's <template data-live-entry>, an entry with every part, see LiveEntryTemplate): each optional part is
 * marked data-part, which the script fills or removes, so the two always render the same entry.
 */
export function LiveEntryView({ entry, lang, template = false }: { entry: LiveEntry; lang: Language; template?: boolean }) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const anchor = entryAnchor(entry.id);
  return (
    <article
      id={template ? undefined : anchor}
      className={`scroll-mt-40 border-s-4 py-4 ps-4 ${entry.pinned ? "border-desert-600 bg-sand-100" : entry.key_event ? "border-red-700" : "border-sand-300"}`}
      data-testid="live-entry"
      data-entry-id={template ? undefined : entry.id}
      data-version={template ? undefined : entry.version}
      data-pinned={entry.pinned ? "true" : undefined}
      data-key-event={entry.key_event ? "true" : undefined}
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-soft">
        <a href={`#${anchor}`} className="font-bold text-ink hover:underline" data-part="anchor">
          <time dateTime={isoDate(entry.at)} data-part="at">
            {formatDate(entry.at, lang, "dateTime")}
          </time>
        </a>
        {entry.pinned && (
          <span className="rounded bg-desert-600 px-1.5 py-0.5 text-xs font-bold text-white" data-part="pinned">
            {t("live.pinned")}
          </span>
        )}
        {entry.key_event && (
          <span className="rounded border border-red-700 px-1.5 py-0.5 text-xs font-bold text-red-800" data-part="key">
            {t("live.keyEvent")}
          </span>
        )}
        <bdi className="font-bold" data-part="author">
          {entry.author}
        </bdi>
      </header>
      {/* Sanitised by the server (the rich-text editor's allow-list) before it was stored. An entry is written in one
          language whatever the page's: `auto` sets an Arabic entry right to left on the French page too. */}
      <div dir="auto" className="prose-article mt-2 text-lg leading-relaxed" data-part="body" dangerouslySetInnerHTML={{ __html: entry.body }} />
      {entry.image && (
        <img
          src={entry.image.url}
          alt={entry.image.alt}
          loading="lazy"
          decoding="async"
          width={1200}
          height={675}
          className="mt-3 aspect-video w-full rounded-lg object-cover"
          data-part="image"
        />
      )}
      {entry.video_id && (
        // The video library's page: the site's own player plays it there (an entry carries the video's id only).
        <a
          href={local("/videos")}
          className="mt-3 inline-flex rounded-md border border-sand-300 bg-white px-3 py-2 font-bold hover:bg-sand-100"
          data-part="video"
        >
          {t("live.watchVideo")}
        </a>
      )}
      {entry.embed_url && (
        // A link card, never the network's script: the reader's page stays ours (no tracking, no layout shift).
        <a
          href={entry.embed_url}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="mt-3 block rounded-lg border border-sand-300 bg-white px-4 py-3 hover:bg-sand-100"
          data-part="embed"
        >
          <span className="block text-sm text-ink-soft">{t("live.embedLabel")}</span>
          <bdi dir="ltr" className="font-bold" data-part="embed-host">
            {hostOf(entry.embed_url)}
          </bdi>
        </a>
      )}
      <footer className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-ink-soft">
        {entry.edited_at && (
          <span data-testid="live-entry-edited" data-part="edited">
            {t("live.edited")}{" "}
            <time dateTime={isoDate(entry.edited_at)} data-part="edited-at">
              {formatDate(entry.edited_at, lang, "dateTime")}
            </time>
          </span>
        )}
        <a href={local(entry.url)} className="underline hover:text-desert-700" data-part="share">
          {t("live.entryLink")}
        </a>
      </footer>
    </article>
  );
}

/** The entry with every part, that app/enhance/live.js copies for the entries that arrive. */
export const TEMPLATE_ENTRY: LiveEntry = {
  id: 0,
  version: 0,
  at: "2000-01-01T00:00:00.000Z",
  edited_at: "2000-01-01T00:00:00.000Z",
  author: "",
  body: "",
  image: { url: "", alt: "" },
  video_id: "-",
  embed_url: "https://example.invalid/",
  key_event: true,
  pinned: true,
  url: "/",
};

export function LiveEntryTemplate({ lang }: { lang: Language }) {
  return (
    <template data-live-entry="">
      <LiveEntryView entry={TEMPLATE_ENTRY} lang={lang} template />
    </template>
  );
}
