import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DomainError } from '@estudio/core';
import { ServerAnswerError } from './server-proxy.ts';

/** What the files need of the desk service: where the server is, the desk's token, and its guards. */
export interface DeskFilesDoor {
  serverUrl: () => string;
  token: () => Promise<string | null>;
  /** Refuses when nobody is signed in (desk/signed-out). */
  requireSignedIn: () => void;
  /** Refuses while the desk is locked. */
  requireUnlocked: () => void;
}

type StoredFile = { file_id: number; src: string; size: number; type: string };

/**
 * The console's files, sent to and read from the server with the desk's
 * token: an image field's upload and its preview, and a video's upload
 * streamed as it is read (decision 046). The server sniffs each file and
 * refuses in Spanish; its refusal comes back as it is.
 */
export class DeskFiles {
  constructor(private readonly door: DeskFilesDoor) {}

  /** The signed-in, unlocked desk's token, or desk/signed-out. */
  private async authorization(): Promise<string> {
    this.door.requireSignedIn();
    this.door.requireUnlocked();
    const token = await this.door.token();
    if (!token) throw new DomainError('desk/signed-out');
    return `Bearer ${token}`;
  }

  /**
   * The console's image upload: the picked file goes to the server's POST
   * /api/files as an image; the answer is the stored file (its `src` is what
   * an image field keeps). The server refuses a non-image or a too large file
   * in Spanish.
   */
  async uploadImage(name: string, type: string, base64: string): Promise<{ file_id: number; src: string }> {
    const authorization = await this.authorization();
    const form = new FormData();
    form.append('kind', 'image');
    form.append('file', new Blob([Buffer.from(base64, 'base64')], { type }), name);
    const res = await fetch(new URL('/api/files', this.door.serverUrl()), { method: 'POST', headers: { authorization }, body: form });
    const file = await storedFile<{ file_id: number; src: string }>(res);
    return { file_id: file.file_id, src: file.src };
  }

  /**
   * A video file of the console (decision 046): the bytes are streamed on to
   * the server's POST /api/files/video as they come (from the page's request
   * in desk:web, from the disk in Electron), never held whole. `signal`
   * cancels it (the page's cancel, or the page going away). The server sniffs
   * the content and checks its size limit.
   */
  async uploadVideo(input: { body: AsyncIterable<Uint8Array>; name: string; type: string; size: number | undefined; signal?: AbortSignal }): Promise<StoredFile> {
    const authorization = await this.authorization();
    const headers: Record<string, string> = {
      authorization,
      'content-type': /^video\//.test(input.type) ? input.type : 'application/octet-stream',
      'x-file-name': encodeURIComponent(input.name.slice(0, 200)),
    };
    if (input.size !== undefined) headers['content-length'] = String(input.size);
    const res = await fetch(new URL('/api/files/video', this.door.serverUrl()), {
      method: 'POST',
      headers,
      body: Readable.toWeb(Readable.from(input.body)) as ReadableStream<Uint8Array>,
      duplex: 'half',
      ...(input.signal ? { signal: input.signal } : {}),
    } as RequestInit);
    const { file_id, src, size, type } = await storedFile<StoredFile>(res);
    return { file_id, src, size, type };
  }

  /**
   * A video picked in Electron's window: the renderer passes the file's path
   * (webUtils.getPathForFile) and the main process streams it from the disk.
   * Only a regular file; the server judges whether it is a video. `onProgress`
   * hears the bytes read from the disk so far (what the console's bar shows,
   * as desk:web's XHR shows the bytes sent); `signal` cancels it.
   */
  async uploadVideoFromPath(filePath: string, { signal, onProgress }: { signal?: AbortSignal; onProgress?: (sent: number, total: number) => void } = {}): Promise<StoredFile> {
    const info = await stat(filePath);
    if (!info.isFile()) throw new DomainError('file/missing');
    const ext = path.extname(filePath).toLowerCase();
    const type = ext === '.webm' ? 'video/webm' : ext === '.mov' ? 'video/quicktime' : 'video/mp4';
    const total = info.size;
    async function* counted(): AsyncGenerator<Uint8Array> {
      let sent = 0;
      onProgress?.(0, total);
      for await (const chunk of createReadStream(filePath, signal ? { signal } : {}) as AsyncIterable<Buffer>) {
        sent += chunk.length;
        onProgress?.(sent, total);
        yield chunk;
      }
    }
    return this.uploadVideo({ body: counted(), name: path.basename(filePath), type, size: total, ...(signal ? { signal } : {}) });
  }

  /**
   * An image field's preview: the desk's window only shows its own, data: and
   * blob: pictures (its content-security policy), so the desk reads the
   * stored picture ('/files/…' on the server, or an https address) and hands
   * it over as a data: URL. Only images, at most 5 MB; null when unreadable.
   */
  async imagePreview(src: string): Promise<string | null> {
    this.door.requireSignedIn();
    const url = src.startsWith('/') ? new URL(src, this.door.serverUrl()) : new URL(src);
    if (url.protocol !== 'https:' && !src.startsWith('/')) return null;
    const res = await fetch(url).catch(() => null);
    const type = res?.headers.get('content-type') ?? '';
    if (!res?.ok || !type.startsWith('image/')) return null;
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length > 5 * 1024 * 1024) return null;
    return `data:${type.split(';')[0]};base64,${bytes.toString('base64')}`;
  }
}

/** The server's answer to an upload: the stored file, or its refusal as the desk's error (file/storage-unavailable when it said nothing). */
async function storedFile<F>(res: Response): Promise<F> {
  const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string; file?: F };
  if (!res.ok || !body.file) throw new ServerAnswerError(new DomainError((body.code ?? 'file/storage-unavailable') as never, body.message ?? undefined), undefined);
  return body.file;
}
