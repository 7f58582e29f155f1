/**
 * Article text as stored: plain text with blank lines between paragraphs. Single line breaks are kept
 * (verse is one line per hemistich), and React escapes everything, so stored text can never inject markup.
 */
export function ArticleBody({ text, verse = false }: { text: string | null | undefined; verse?: boolean }) {
  if (!text) return null;
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <div className={`prose-article text-lg leading-loose ${verse ? "text-center" : ""}`} data-testid="article-body">
      {paragraphs.map((p, i) => (
        <p key={i} className="whitespace-pre-line">
          {p}
        </p>
      ))}
    </div>
  );
}
