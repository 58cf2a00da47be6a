import type { MessageKind } from './kinds.ts';

/** The studio as its messages show it. */
export interface MessageBrand {
  businessName: string;
  /** Absolute URL of the logo (navbar_logo resolved against publicUrl), or null. */
  logoUrl: string | null;
  /** #RRGGBB: the button and header colour. */
  primary: string;
  /** The portal's origin, without a trailing slash. */
  publicUrl: string;
  /** The studio's contact e-mail and WhatsApp, shown at the foot. */
  contactEmail: string;
  contactWhatsapp: string;
}

/** A file for the e-mail (the .ics invitation; an invoice's XML, and its PDF written in base64). */
export interface MessageAttachment {
  filename: string;
  contentType: string;
  content: string;
  encoding?: 'base64';
}

/**
 * What a template writes, before it is addressed. `whatsapp.template` names
 * the template the studio registers in WhatsApp Manager (README: messages);
 * its parameters fill {{1}}, {{2}}… in order, and `whatsapp.text` is the same
 * message as the customer reads it (shown in the desk's Mensajes).
 */
export interface MessageContent {
  kind: MessageKind;
  subject: string;
  /** Plain text of the e-mail. */
  text: string;
  /** Full HTML document of the e-mail. */
  html: string;
  attachments?: MessageAttachment[];
  whatsapp: { template: string; parameters: string[]; text: string } | null;
}

/** The parts a template fills; `compose` lays them out in the studio's colours. */
export interface MessageParts {
  kind: MessageKind;
  subject: string;
  /** "Hola, Sofía:" — omitted when the name is unknown. */
  greetingName?: string | null;
  /** Paragraphs of plain text. */
  paragraphs: string[];
  /** Label/value rows (Clase, Fecha, Código de acceso…). */
  details?: [string, string][];
  /** The main button. */
  action?: { label: string; url: string } | null;
  /** Smaller lines under the button ("Si no fuiste tú…"). */
  footnotes?: string[];
  attachments?: MessageAttachment[];
  whatsapp?: { template: string; parameters: string[] } | null;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** A #RRGGBB colour, or the fallback: the value lands in a style attribute. */
const safeColour = (c: string) => (/^#[0-9a-fA-F]{6}$/.test(c) ? c : '#d6336c');

/** Black or white text, whichever reads better on the colour (WCAG relative luminance). */
function textOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (1.05 / (l + 0.05)) >= ((l + 0.05) / 0.05) ? '#ffffff' : '#1a1b1e';
}

/**
 * Lays a message out: the e-mail's text and HTML (logo, the studio's colour,
 * a button, details, the foot with contact and — for optional messages — the
 * stop link) and the WhatsApp text with its template parameters.
 * `stopUrl` is added by the sender for optional messages only.
 */
export function compose(parts: MessageParts, brand: MessageBrand, stopUrl: string | null = null): MessageContent {
  const greeting = parts.greetingName ? `Hola, ${parts.greetingName}:` : 'Hola:';
  const details = parts.details ?? [];
  const footnotes = parts.footnotes ?? [];
  const stopLine = stopUrl ? `¿No quieres recibir estos mensajes? Desactívalos aquí: ${stopUrl}` : null;

  const text = [
    greeting,
    '',
    ...parts.paragraphs.flatMap((p) => [p, '']),
    ...(details.length ? [...details.map(([k, v]) => `${k}: ${v}`), ''] : []),
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`, ''] : []),
    ...footnotes.flatMap((f) => [f, '']),
    '—',
    brand.businessName,
    ...[brand.contactEmail, brand.contactWhatsapp ? `WhatsApp ${brand.contactWhatsapp}` : ''].filter(Boolean),
    ...(stopLine ? ['', stopLine] : []),
  ].join('\n');

  const colour = safeColour(brand.primary);
  const onColour = textOn(colour);
  const e = escapeHtml;
  const paragraph = (p: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:#1a1b1e;overflow-wrap:anywhere">${e(p)}</p>`;
  const html = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(parts.subject)}</title></head>
<body style="margin:0;padding:0;background:#f1f3f5;font-family:Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f3f5;padding:24px 0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="background:${colour};padding:20px 24px;color:${onColour};font-size:20px;font-weight:bold">${
    brand.logoUrl ? `<img src="${e(brand.logoUrl)}" alt="${e(brand.businessName)}" height="40" style="display:block;max-height:40px;max-width:200px;background:#ffffff;border-radius:4px;padding:4px">` : e(brand.businessName)
  }</td></tr>
<tr><td style="padding:24px">
${paragraph(greeting)}
${parts.paragraphs.map(paragraph).join('\n')}
${
  details.length
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:15px;color:#1a1b1e">${details
        .map(([k, v]) => `<tr><td style="padding:4px 16px 4px 0;color:#495057">${e(k)}</td><td style="padding:4px 0;font-weight:bold">${e(v)}</td></tr>`)
        .join('')}</table>`
    : ''
}
${
  parts.action
    ? `<p style="margin:8px 0 24px"><a href="${e(parts.action.url)}" style="display:inline-block;background:${colour};color:${onColour};text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:bold;font-size:16px">${e(parts.action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#495057;overflow-wrap:anywhere">Si el botón no funciona, copia este enlace: ${e(parts.action.url)}</p>`
    : ''
}
${footnotes.map((f) => `<p style="margin:0 0 12px;font-size:13px;line-height:1.5;color:#495057;overflow-wrap:anywhere">${e(f)}</p>`).join('\n')}
</td></tr>
<tr><td style="padding:16px 24px;background:#f8f9fa;font-size:13px;line-height:1.5;color:#495057">${e(brand.businessName)}${
    brand.contactEmail ? ` · ${e(brand.contactEmail)}` : ''
  }${brand.contactWhatsapp ? ` · WhatsApp ${e(brand.contactWhatsapp)}` : ''}${
    stopUrl ? `<br><a href="${e(stopUrl)}" style="color:#495057">No quiero recibir estos mensajes</a>` : ''
  }</td></tr>
</table></td></tr></table></body></html>`;

  const whatsappText = [
    greeting,
    ...parts.paragraphs,
    ...details.map(([k, v]) => `${k}: ${v}`),
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`] : []),
    ...(stopUrl ? [`Para dejar de recibir estos mensajes: ${stopUrl}`] : []),
  ].join('\n');

  return {
    kind: parts.kind,
    subject: parts.subject,
    text,
    html,
    ...(parts.attachments?.length ? { attachments: parts.attachments } : {}),
    whatsapp: parts.whatsapp ? { template: parts.whatsapp.template, parameters: parts.whatsapp.parameters, text: whatsappText } : null,
  };
}

/** The studio's brand from its app configuration and public origin. */
export function messageBrand(
  settings: { business_name: string; navbar_logo: string; primary: string; email: string; whatsapp: string },
  publicUrl: string,
): MessageBrand {
  const origin = publicUrl.replace(/\/$/, '');
  let logoUrl: string | null = null;
  if (settings.navbar_logo) {
    try {
      logoUrl = new URL(settings.navbar_logo, `${origin}/`).toString();
    } catch {
      logoUrl = null;
    }
  }
  return {
    businessName: settings.business_name,
    logoUrl,
    primary: settings.primary,
    publicUrl: origin,
    contactEmail: settings.email,
    contactWhatsapp: settings.whatsapp,
  };
}
