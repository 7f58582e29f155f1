import type { Body } from "#domain/detail-view.ts";
import type { Language } from "#domain/language.ts";
import { textProps } from "#domain/localized.ts";

const CLASS = "prose-article text-lg leading-loose";

/**
 * A body as stored. Rich text from the newsroom editor arrives as HTML the server has just sanitised
 * (server/content/detail-page.server.ts, with server/content/rich-text.server.ts) and is rendered as such. Plain text (the demo's, the old
 * site's) has blank lines between paragraphs; single line breaks are kept (verse is one line per hemistich)
 * and React escapes everything, so stored text can never inject markup.
 */
export function ArticleBody({ body, verse = false, lang }: { body: Body | null | undefined; verse?: boolean; lang: Language }) {
  if (!body) return null;
  const className = `${CLASS} ${verse ? "text-center" : ""}`;
  // The body keeps its own language and direction on a page in another language.
  const own = textProps(lang, "html" in body ? body.html : body.text);
  if ("html" in body) return <div className={className} data-testid="article-body" {...own} dangerouslySetInnerHTML={{ __html: body.html }} />;
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
