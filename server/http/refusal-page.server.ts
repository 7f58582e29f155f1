/**
 * The page a browser gets when a form of ours is posted from somewhere that is not this site (issue 28): a
 * small HTML page in the reader's language and direction that says why and links to the site's own address,
 * instead of raw JSON or a bare line of text. It is sent by the request guard before any route runs, so it
 * stands alone: no scripts, its few styles inline.
 */
import { directionOf, type Language } from "#domain/language.ts";
import { translate } from "./i18n.server.ts";

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The refusal in `lang`, pointing at `siteOrigin` (the public URL's origin), where the form works. */
export function crossOriginPage(lang: Language, siteOrigin: string): string {
  const text = (key: string) => escapeHtml(translate(lang, key));
  const home = `${siteOrigin}/`;
  const why = text("requestRefused.why").replace("{{origin}}", `<bdi dir="ltr">${escapeHtml(siteOrigin)}</bdi>`);
  return `<!doctype html>
<html lang="${lang}" dir="${directionOf(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${text("requestRefused.title")}</title>
<style>
body{margin:0;font-family:system-ui,sans-serif;background:#faf7f2;color:#1f1b16;line-height:1.6}
main{max-width:36rem;margin:10vh auto;padding:2rem 1.25rem;background:#fff;border:1px solid #e7dfd2;border-radius:.75rem}
h1{margin:0 0 .75rem;font-size:1.5rem}
p{margin:0 0 1.25rem}
a{display:inline-block;padding:.6rem 1rem;border-radius:.375rem;font-weight:700;text-decoration:none;background:#8a4b14;color:#fff}
</style>
</head>
<body>
<main role="alert" data-testid="cross-origin-refused">
<h1>${text("requestRefused.title")}</h1>
<p>${text("adminShell.crossOrigin")}</p>
<p>${why}</p>
<p><a href="${escapeHtml(home)}">${text("requestRefused.home")}</a></p>
</main>
</body>
</html>`;
}
