/**
 * Bunny Storage, the spec's storage zone (back-office.md §7 "File hosting"): PUT
 * `{api}/{zone}/{folder}/{timestamp}-{filename}` with the zone password in `AccessKey` and the file's
 * type; GET and DELETE the same path (a path ending in `/` is a directory: its listing, or all of it
 * deleted); readers load `{CDN_URL}/{folder}/...` from the pull zone, without the zone.
 *
 * node:http rather than fetch: the body is piped with back-pressure and its length sent ahead when known,
 * and a refusal that arrives mid-upload stops the sending at once.
 */
import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  assertValidKey,
  byteLength,
  checkedBody,
  collect,
  encodeKey,
  isValidKey,
  objectKey,
  StorageError,
  type ListedObject,
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

/** An entry of a directory listing (https://docs.bunny.net/reference/get_-storagezonename-path-). */
type BunnyListing = { ObjectName: string; Length?: number; IsDirectory?: boolean; LastChanged?: string }[];

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
    const answer = await this.request("PUT", encodeKey(key), checkedBody(body, size), contentType, size ?? byteLength(body));
    if (answer.status < 200 || answer.status >= 300) {
      throw new StorageError(`Upload failed with status ${answer.status}: ${answer.statusText}`, answer.status);
    }
    return { key, url: this.publicUrl(key) };
  }

  async read(key: string): Promise<Readable> {
    assertValidKey(key);
    return this.get(encodeKey(key), "Read");
  }

  /** The zone's directory listing (`GET /{zone}/{path}/`), walked into subdirectories. */
  async list(prefix: string): Promise<ListedObject[]> {
    assertValidKey(prefix);
    const listed: ListedObject[] = [];
    const walk = async (folder: string): Promise<void> => {
      let entries: BunnyListing;
      try {
        entries = JSON.parse((await collect(await this.get(`${encodeKey(folder)}/`, "List"), 16 * 1024 * 1024)).toString("utf8")) as BunnyListing;
      } catch (error) {
        if (error instanceof StorageError && error.status === 404) return;
        throw error instanceof StorageError ? error : new StorageError(`List failed: ${reasonOf(error)}`);
      }
      for (const entry of Array.isArray(entries) ? entries : []) {
        const key = `${folder}/${entry.ObjectName}`;
        if (!isValidKey(key)) continue;
        if (entry.IsDirectory) await walk(key);
        else listed.push({ key, size: entry.Length ?? 0, modified: changedAt(entry.LastChanged) });
      }
    };
    await walk(prefix);
    return listed;
  }

  async remove(key: string): Promise<void> {
    assertValidKey(key);
    await this.delete(encodeKey(key));
  }

  /** Bunny deletes a directory with everything in it: `DELETE /{zone}/{path}/`. */
  async removePrefix(prefix: string): Promise<void> {
    assertValidKey(prefix);
    await this.delete(`${encodeKey(prefix)}/`);
  }

  publicUrl(key: string): string {
    return `${this.cdnUrl}/${encodeKey(key)}`;
  }

  private async delete(target: string): Promise<void> {
    const answer = await this.request("DELETE", target);
    if (answer.status === 404) return;
    if (answer.status < 200 || answer.status >= 300) {
      throw new StorageError(`Delete failed with status ${answer.status}: ${answer.statusText}`, answer.status);
    }
  }

  /** GET of a file or a directory listing: the answer's body as a stream once the status says it is there. */
  private get(target: string, action: "Read" | "List"): Promise<Readable> {
    const url = new URL(`${this.apiUrl}/${encodeURIComponent(this.zone)}/${target}`);
    const transport = url.protocol === "http:" ? http : https;
    return new Promise<Readable>((resolve, reject) => {
      const req = transport.request(url, { method: "GET", headers: { AccessKey: this.#accessKey, Accept: "*/*" }, timeout: this.idleTimeoutMs }, (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve(res);
        res.resume();
        reject(new StorageError(`${action} failed with status ${status}: ${res.statusMessage ?? ""}`, status));
      });
      req.on("timeout", () => req.destroy(new StorageError(`Bunny Storage did not answer within ${this.idleTimeoutMs} ms`)));
      // Only the cause's code and message travel on: a request object would carry the AccessKey header.
      req.on("error", (error) => reject(error instanceof StorageError ? error : new StorageError(`${action} failed: ${reasonOf(error)}`)));
      req.end();
    });
  }

  private request(method: "PUT" | "DELETE", target: string, body?: StorageBody, contentType?: string, size?: number): Promise<Answer> {
    const url = new URL(`${this.apiUrl}/${encodeURIComponent(this.zone)}/${target}`);
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

/** Bunny writes its times in UTC without a zone (`2024-05-01T10:00:00.000`). */
function changedAt(value: string | undefined): Date | undefined {
  const date = value ? new Date(/(Z|[+-]\d\d:?\d\d)$/.test(value) ? value : `${value}Z`) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `${code} ${error.message}` : error.message;
  }
  return String(error);
}
