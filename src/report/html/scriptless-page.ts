import { esc } from './html.js';

/**
 * The policy of a page with no script (sweep.html, a ruleset comparison's compare.html): it loads nothing
 * from anywhere; its styles are inline and its only image is the empty data: icon.
 */
const SCRIPTLESS_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** A whole page with no script: `body` inside <main>, `css` inline, nothing loaded. */
export function scriptlessPage(title: string, css: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${SCRIPTLESS_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="icon" href="data:,">
<style>${css}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
