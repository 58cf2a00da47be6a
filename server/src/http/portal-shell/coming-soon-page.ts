import { studioSetupTexts } from '@estudio/core';

/** What "Próximamente" shows of the studio: only what its owner stored (services/setup/studio-setup.ts, readStudioFront). */
export interface ComingSoonStudio {
  name: string | null;
  logo: string | null;
  favicon: string | null;
  primary: string | null;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const t = studioSetupTexts.comingSoon;

/**
 * The portal's page while the studio is not published (decision 129): the
 * studio's name and logo when its owner set them, "Próximamente" and one
 * line. A page of its own, with no script and no request but the logo's: it
 * is the same for every path it stands in for, and it never starts the
 * portal's app, so nothing of the published pages changes or weighs more.
 */
export function comingSoonPage(studio: ComingSoonStudio): string {
  const colour = studio.primary && /^#[0-9a-fA-F]{6}$/.test(studio.primary) ? studio.primary : '#495057';
  const name = studio.name ? escapeHtml(studio.name) : null;
  const icon = studio.favicon ?? studio.logo;
  return `<!doctype html>
<html lang="es-MX">
  <head>
    <meta charset="UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="robots" content="noindex">
    <meta name="theme-color" content="${colour}">
    <title>${name ? `${t.title} · ${name}` : t.title}</title>
    ${icon ? `<link rel="icon" href="${escapeHtml(icon)}">` : ''}
    <style>
      *, *::before, *::after { box-sizing: border-box; }
      html, body { margin: 0; height: 100%; }
      body {
        font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
        color: #212529;
        background: linear-gradient(160deg, #ffffff 0%, #f1f3f5 100%);
        display: flex;
        align-items: center;
        justify-content: center;
        padding: 24px;
        -webkit-font-smoothing: antialiased;
      }
      main { width: 100%; max-width: 480px; text-align: center; }
      .card {
        background: #ffffff;
        border-radius: 20px;
        padding: 48px 32px 44px;
        box-shadow: 0 1px 3px rgba(0, 0, 0, 0.06), 0 12px 32px rgba(0, 0, 0, 0.08);
        border-top: 6px solid ${colour};
      }
      .logo { display: block; margin: 0 auto 20px; max-width: 200px; max-height: 96px; width: auto; height: auto; object-fit: contain; }
      .studio { margin: 0 0 24px; font-size: 1.125rem; font-weight: 600; color: #495057; overflow-wrap: anywhere; }
      h1 { margin: 0 0 12px; font-size: clamp(2rem, 7vw, 2.75rem); line-height: 1.1; letter-spacing: -0.02em; color: #212529; }
      .line { margin: 0; font-size: 1.0625rem; line-height: 1.5; color: #495057; }
    </style>
  </head>
  <body>
    <main>
      <div class="card" data-testid="coming-soon">
        ${studio.logo ? `<img class="logo" src="${escapeHtml(studio.logo)}" alt="${name ?? ''}">` : ''}
        ${name ? `<p class="studio">${name}</p>` : ''}
        <h1>${t.title}</h1>
        <p class="line">${t.line}</p>
      </div>
    </main>
  </body>
</html>
`;
}
