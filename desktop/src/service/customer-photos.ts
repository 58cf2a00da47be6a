import type { Replica } from '@estudio/sync/client/types';

/**
 * Customers' photos for the scan verdict and the customer card (so
 * staff match a face to the name). The spec keeps a customer's photo as
 * `customer.file_id` → `file`; the desk replicates the customer row but not
 * the file table (every upload of the studio), so the desk asks the server for
 * the photo the first time it is needed, online, and keeps the image in the
 * replica's meta: a face seen once shows offline afterwards, and goes with the
 * replica when the desk is pointed at another studio.
 */
export interface PhotoSource {
  /** The file's record as the server's `files.byId` answers it (src: `/files/<key>` or an S3 URL). */
  file(fileId: number): Promise<{ src: string; type: string }>;
  serverUrl(): string;
  token(): Promise<string | null>;
}

/** A portrait the desk shows is small; anything larger is not worth carrying around as a data URL. */
const MAX_PHOTO_BYTES = 2 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 4_000;
const keyOf = (fileId: number) => `desk.photo.${fileId}`;

export class CustomerPhotos {
  /** One download per file at a time (a scan and the card may ask together). */
  private readonly loading = new Map<number, Promise<string | null>>();

  constructor(
    private readonly replica: () => Replica,
    private readonly source: PhotoSource,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** The photo as a data URL; null when there is none, it is not an image, or it was never seen and the server is away. */
  async photo(fileId: number): Promise<string | null> {
    const kept = await this.replica().getMeta(keyOf(fileId));
    if (kept) return kept;
    let pending = this.loading.get(fileId);
    if (!pending) {
      pending = this.download(fileId).finally(() => this.loading.delete(fileId));
      this.loading.set(fileId, pending);
    }
    return pending;
  }

  private async download(fileId: number): Promise<string | null> {
    try {
      const file = await this.source.file(fileId);
      if (!file.type.startsWith('image/')) return null;
      const server = new URL(this.source.serverUrl());
      const url = new URL(file.src, server);
      // The staff token goes only to the studio's own server, never to S3 or another host.
      const token = url.origin === server.origin ? await this.source.token() : null;
      const answer = await this.fetchImpl(url, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!answer.ok) return null;
      const bytes = Buffer.from(await answer.arrayBuffer());
      if (bytes.length === 0 || bytes.length > MAX_PHOTO_BYTES) return null;
      const type = (answer.headers.get('content-type') ?? file.type).split(';')[0]?.trim() || file.type;
      if (!type.startsWith('image/')) return null;
      const dataUrl = `data:${type};base64,${bytes.toString('base64')}`;
      // Files are immutable (a new photo is a new file_id), so what is kept never goes stale.
      await this.replica().setMeta(keyOf(fileId), dataUrl);
      return dataUrl;
    } catch {
      // Offline, deleted, or refused: the initials stand in; the next look tries again.
      return null;
    }
  }
}
