/** Spec §9: a video card shows at most 35 characters of the name and 60 of the description. */
export const VIDEO_NAME_LIMIT = 35;
export const VIDEO_DESCRIPTION_LIMIT = 60;

/** Cuts a text to `limit` characters, the last one being '…' when something was cut. */
export function truncate(text: string | null | undefined, limit: number): string {
  const value = (text ?? '').trim();
  if (value.length <= limit) return value;
  return `${value.slice(0, limit - 1).trimEnd()}…`;
}

/** How a video's url is played: a third-party player in an iframe, or a file in a <video> element. */
export type PlayerSource = { kind: 'iframe'; src: string } | { kind: 'file'; src: string };

const fileExtension = /\.(mp4|webm|ogg|ogv|mov|m4v)(\?.*)?$/i;

/**
 * YouTube and Vimeo page links are turned into their embed urls so an admin
 * can paste either; any other http(s) url that is not a media file is
 * embedded as given (the spec's "embedded third-party player by url").
 */
export function playerSource(url: string): PlayerSource | null {
  let parsed: URL;
  try {
    parsed = new URL(url, globalThis.location?.origin);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (fileExtension.test(parsed.pathname)) return { kind: 'file', src: parsed.href };
  const host = parsed.hostname.replace(/^www\./, '');
  if (host === 'youtu.be') return { kind: 'iframe', src: `https://www.youtube.com/embed/${parsed.pathname.slice(1)}` };
  if ((host === 'youtube.com' || host === 'm.youtube.com') && parsed.pathname === '/watch') {
    const id = parsed.searchParams.get('v');
    if (id) return { kind: 'iframe', src: `https://www.youtube.com/embed/${id}` };
  }
  if (host === 'vimeo.com' && /^\/\d+/.test(parsed.pathname)) return { kind: 'iframe', src: `https://player.vimeo.com/video${parsed.pathname}` };
  return { kind: 'iframe', src: parsed.href };
}
