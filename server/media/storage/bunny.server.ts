/**
 * Bunny Storage, the spec's storage zone (back-office.md §7 "File hosting"): PUT
 * `{api}/{zone}/{folder}/{timestamp}-{filename}` with the zone password in `AccessKey` and the file's
 * type; DELETE the same path; readers load `{CDN_URL}/{folder}/...` from the pull zone, without the zone.
 *
 * node:http rather than fetch: the body is piped with back-pressure and its length sent ahead when known,
 * and a refusal that arrives mid-upload stops the sending at once.
 */
import http from "node:http";
import https from "node:https";
import { pipeline } from "node:stream/promises";
import {
  assertValidKey,
  byteLength,
  checkedBody,
  encodeKey,
  objectKey,
  StorageError,
  type Storage,
  type StorageBody,
  type StoredFile,
} from "./driver.server.ts";

export type BunnyStorageOptions = {
  zone: string;
  /** The storage zone password (not the account API key). */
  accessKey: string;
  /** The pull zone, e.g. https://sahara.b-cdn.net. */
  cdnUrl: string;
  /** `https://{BUNNY_STORAGE_HOST}` in production; tests point it at a local server. */
  apiUrl: string;
  /** Longest silence on the connection before giving up, in ms. */
  idleTimeoutMs?: number;
};

type Answer = { status: number; statusText: string };

export class BunnyStorage implements Storage {
  // A private field: the password stays out of util.inspect and of any object a logger serialises.
  readonly #accessKey: string;
  private readonly zone: string;
  private readonly apiUrl: string;
  private readonly cdnUrl: string;
  private readonly idleTimeoutMs: number;

  constructor(options: BunnyStorageOptions) {
    this.#accessKey = options.accessKey;
    this.zone = options.zone;
    this.apiUrl = options.apiUrl.replace(/\/+$/, "");
    this.cdnUrl = options.cdnUrl.replace(/\/+$/, "");
    this.idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  }

  async put(folder: string, filename: string, body: StorageBody, contentType: string, size?: number): Promise<StoredFile> {
    return this.putAt(objectKey(folder, filename), body, contentType, size);
  }

  async putAt(key: string, body: StorageBody, contentType: string, size?: number): Promise<StoredFile> {
    assertValidKey(key);
    const answer = await this.request("PUT", key, checkedBody(body, size), contentType, size ?? byteLength(body));
    if (answer.status < 200 || answer.status >= 300) {
      throw new StorageError(`Upload failed with status ${answer.status}: ${answer.statusText}`, answer.status);
    }
    return { key, url: this.publicUrl(key) };
  }

  async remove(key: string): Promise<void> {
    assertValidKey(key);
    const answer = await this.request("DELETE", key);
    if (answer.status === 404) return;
    if (answer.status < 200 || answer.status >= 300) {
      throw new StorageError(`Delete failed with status ${answer.status}: ${answer.statusText}`, answer.status);
    }
  }

  publicUrl(key: string): string {
    return `${this.cdnUrl}/${encodeKey(key)}`;
  }

  private request(method: "PUT" | "DELETE", key: string, body?: StorageBody, contentType?: string, size?: number): Promise<Answer> {
    const url = new URL(`${this.apiUrl}/${encodeURIComponent(this.zone)}/${encodeKey(key)}`);
    const headers: http.OutgoingHttpHeaders = { AccessKey: this.#accessKey, Accept: "application/json" };
    if (contentType) headers["Content-Type"] = contentType;
    if (size !== undefined) headers["Content-Length"] = size;
    const transport = url.protocol === "http:" ? http : https;

    return new Promise<Answer>((resolve, reject) => {
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        // Only the cause's code and message travel on: a request object would carry the AccessKey header.
        const reason = error instanceof StorageError ? error : new StorageError(`${method === "PUT" ? "Upload" : "Delete"} failed: ${reasonOf(error)}`);
        reject(reason);
      };
      const req = transport.request(url, { method, headers, timeout: this.idleTimeoutMs }, (res) => {
        const answer = { status: res.statusCode ?? 0, statusText: res.statusMessage ?? "" };
        res.resume();
        res.on("error", fail);
        res.on("end", () => {
          if (settled) return;
          settled = true;
          resolve(answer);
          // Refused before the whole body went out: stop sending the rest of a large file.
          if (!req.writableFinished) req.destroy();
        });
      });
      req.on("timeout", () => req.destroy(new StorageError(`Bunny Storage did not answer within ${this.idleTimeoutMs} ms`)));
      req.on("error", fail);
      if (body === undefined) req.end();
      else if (body instanceof Uint8Array) req.end(body);
      else
        pipeline(body, req).catch((error: unknown) => {
          req.destroy();
          fail(error);
        });
    });
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `${code} ${error.message}` : error.message;
  }
  return String(error);
}
