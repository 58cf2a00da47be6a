/**
 * Where uploaded bytes live. The file row keeps `storage` ('server' | 's3'),
 * `storage_key` (the object key, a random id plus extension — never the
 * client's file name) and `src` (the public URL).
 */
export interface FileStorage {
  readonly kind: 'server' | 's3';
  /** Stores the bytes under `key` and answers the public URL. */
  put(key: string, body: Buffer, contentType: string): Promise<{ src: string }>;
  /** Removes the bytes; a missing object is not an error. */
  remove(key: string): Promise<void>;
}
