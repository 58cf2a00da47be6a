/**
 * Where uploaded bytes live. The file row keeps `storage` ('server' | 's3'),
 * `storage_key` (the object key, a random id plus extension — never the
 * client's file name) and `src` (the public URL).
 */
export interface FileStorage {
  readonly kind: 'server' | 's3';
  /** Stores the bytes under `key` and answers the public URL. */
  put(key: string, body: Buffer, contentType: string): Promise<{ src: string }>;
  /**
   * Stores a stream under `key` without holding it whole in memory (video
   * files, decision 046): the local disk writes it as it comes, S3 takes it
   * in parts of `s3PartBytes`. A failure leaves nothing behind.
   */
  putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<{ src: string }>;
  /** Removes the bytes; a missing object is not an error. */
  remove(key: string): Promise<void>;
}
