import type { Body } from "#domain/detail-view.ts";
import { directionOf, type Language } from "#domain/language.ts";
import { textProps } from "#domain/localized.ts";
import { renderEmbeds } from "#domain/embeds.ts";
import embedsScript from "#app/enhance/embeds.js?url&no-inline";
import { useTranslation } from "#app/lib/i18n.ts";

const CLASS = "prose-article text-lg leading-loose";

/**
 * A body as stored. Rich text from the newsroom editor arrives as HTML the server has just sanitised
 * (server/content/detail-page.server.ts, with server/content/rich-text.server.ts) and is rendered as such, its embeds
 * as placeholders that ask first (docs/decisions/0150-embeds-ask-first.md). Plain text (the demo's, the old
 * site's) has blank lines between paragraphs; single line breaks are kept (verse is one line per hemistich)
 * and React escapes everything, so stored text can never inject markup.
 */
export function ArticleBody({ body, verse = false, lang }: { body: Body | null | undefined; verse?: boolean; lang: Language }) {
  const { t } = useTranslation();
  if (!body) return null;
  const className = `${CLASS} ${verse ? "text-center" : ""}`;
  // The body keeps its own language and direction on a page in another language.
  const own = textProps(lang, "html" in body ? body.html : body.text);
  if ("html" in body) {
    // Embeds the server marked (domain/embeds.ts) get their placeholder or player, in the page's language.
    const labels = (service: string) => ({
      title: t("embeds.title", { service }),
      note: t("embeds.note", { service }),
      load: t("embeds.load", { service }),
      open: t("embeds.open", { service }),
      frameTitle: t("embeds.frameTitle", { service }),
      lang,
      dir: directionOf(lang),
      script: embedsScript,
    });
    return <div className={className} data-testid="article-body" {...own} dangerouslySetInnerHTML={{ __html: renderEmbeds(body.html, labels) }} />;
  }
  const paragraphs = body.text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <div className={className} data-testid="article-body" {...own}>
      {paragraphs.map((p, i) => (
        <p key={i} className="whitespace-pre-line">
          {p}
        </p>
      ))}
    </div>
  );
}
