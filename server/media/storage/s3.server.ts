/**
 * Any S3-compatible store (AWS S3, Cloudflare R2, MinIO, Backblaze B2, Scaleway...): objects under the
 * same `{folder}/{timestamp}-{tag}-{filename}` keys as the other drivers, served from S3_PUBLIC_URL.
 *
 * Uploads go through lib-storage's `Upload`: a stream is cut into parts and sent as a multipart upload,
 * so at most `partSize × queueSize` bytes are held at once whatever the file's size; a failed multipart
 * upload is aborted, leaving nothing behind. The SDK is loaded on first use: a server on the local
 * driver never pays for it.
 */
import type { Readable } from "node:stream";
import type { S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import {
  assertValidKey,
  checkedBody,
  eachLimited,
  encodeKey,
  objectKey,
  StorageError,
  type ListedObject,
  type Storage,
  type StorageBody,
  type StoredFile,
} from "./driver.server.ts";

export type S3StorageOptions = {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Public base of the bucket (a custom domain, R2's r2.dev address...); the key is appended. */
  publicUrl: string;
  /** Bytes per part (S3's minimum is 5 MiB). */
  partSize?: number;
  /** Parts in flight at once. */
  queueSize?: number;
};

const MiB = 1024 * 1024;

export class S3Storage implements Storage {
  // Private fields: the credentials stay out of util.inspect and of any object a logger serialises.
  readonly #accessKeyId: string;
  readonly #secretAccessKey: string;
  #client: Promise<S3Client> | undefined;
  private readonly endpoint: string;
  private readonly region: string;
  private readonly bucket: string;
  private readonly base: string;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor(options: S3StorageOptions) {
    this.#accessKeyId = options.accessKeyId;
    this.#secretAccessKey = options.secretAccessKey;
    this.endpoint = options.endpoint;
    this.region = options.region || "auto";
    this.bucket = options.bucket;
    this.base = options.publicUrl.replace(/\/+$/, "");
    this.partSize = Math.max(options.partSize ?? 8 * MiB, 5 * MiB);
    this.queueSize = Math.max(options.queueSize ?? 2, 1);
  }

  async put(folder: string, filename: string, body: StorageBody, contentType: string, size?: number): Promise<StoredFile> {
    return this.putAt(objectKey(folder, filename), body, contentType, size);
  }

  async putAt(key: string, body: StorageBody, contentType: string, size?: number): Promise<StoredFile> {
    assertValidKey(key);
    const [client, { Upload }] = await Promise.all([this.client(), import("@aws-sdk/lib-storage")]);
    const upload = new Upload({
      client,
      params: { Bucket: this.bucket, Key: key, Body: checkedBody(body, size), ContentType: contentType },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      throw storageError("Upload", error);
    }
    return { key, url: this.publicUrl(key) };
  }

  async read(key: string): Promise<Readable> {
    assertValidKey(key);
    const [client, { GetObjectCommand }] = await Promise.all([this.client(), import("@aws-sdk/client-s3")]);
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      // In Node the body is the response stream itself (an IncomingMessage): read as it arrives.
      return answer.Body as Readable;
    } catch (error) {
      throw storageError("Read", error);
    }
  }

  async list(prefix: string): Promise<ListedObject[]> {
    assertValidKey(prefix);
    const [client, { ListObjectsV2Command }] = await Promise.all([this.client(), import("@aws-sdk/client-s3")]);
    const listed: ListedObject[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${prefix}/`, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          if (object.Key) listed.push({ key: object.Key, size: object.Size ?? 0, modified: object.LastModified });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      throw storageError("List", error);
    }
    return listed;
  }

  async remove(key: string): Promise<void> {
    assertValidKey(key);
    const [client, { DeleteObjectCommand }] = await Promise.all([this.client(), import("@aws-sdk/client-s3")]);
    try {
      await client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw storageError("Delete", error);
    }
  }

  async removePrefix(prefix: string): Promise<void> {
    // One DELETE per object, a few at a time: the batch call (DeleteObjects) demands a checksum several
    // S3-compatible stores compute differently, and a video's folder holds hundreds of segments at most.
    const objects = await this.list(prefix);
    await eachLimited(objects, 8, (object) => this.remove(object.key));
  }

  publicUrl(key: string): string {
    return `${this.base}/${encodeKey(key)}`;
  }

  private client(): Promise<S3Client> {
    this.#client ??= import("@aws-sdk/client-s3").then(
      ({ S3Client }) =>
        new S3Client({
          endpoint: this.endpoint,
          region: this.region,
          credentials: { accessKeyId: this.#accessKeyId, secretAccessKey: this.#secretAccessKey },
          // Bucket in the path, not in the host name: works with any endpoint, IP address or custom domain.
          forcePathStyle: true,
          // Checksums only where S3 demands them: the SDK's newer default (CRC32 on every request, sent
          // as an aws-chunked trailer for streams) is refused or mis-stored by several S3-compatible stores.
          requestChecksumCalculation: "WHEN_REQUIRED",
          responseChecksumValidation: "WHEN_REQUIRED",
          maxAttempts: 3,
        }),
    );
    return this.#client;
  }
}

/** Status and S3 error code only: the SDK's error carries the request, whose headers name the access key. */
function storageError(action: "Upload" | "Delete" | "Read" | "List", error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const service = error as Partial<S3ServiceException>;
  const status = service.$metadata?.httpStatusCode;
  if (status)
    return new StorageError(`${action} failed with status ${status}: ${service.name ?? "Error"}${service.message ? ` (${service.message})` : ""}`, status);
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return new StorageError(`${action} failed: ${code ? `${code} ` : ""}${message}`);
}
