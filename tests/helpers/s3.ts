/**
 * A real S3-protocol server for tests: s3rver on a random loopback port, with one bucket, its objects kept in a
 * temporary folder. It knows one account (S3RVER/S3RVER) and checks the key id of version-4 signatures; it
 * serves objects to anyone, as a public bucket behind a CDN would.
 */
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

type S3rverInstance = { run: () => Promise<AddressInfo>; close: () => Promise<void> };
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string; configs?: (string | Buffer)[] }[];
}) => S3rverInstance;
// s3rver ships no types; only its constructor, run and close are used.
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;

/** Any origin may GET (a player on the site's pages fetches playlists and segments with hls.js). */
const OPEN_CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>Content-Range</ExposeHeader></CORSRule></CORSConfiguration>`;

export type S3Server = {
  endpoint: string;
  bucket: string;
  /** Where the bucket's objects are read from by a browser. */
  publicUrl: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The settings that point the site's storage at this server (STORAGE_DRIVER=s3). */
  env: Record<string, string>;
  directory: string;
  close: () => Promise<void>;
};

export async function startS3Server({ bucket = "sahara-media" } = {}): Promise<S3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "sahara-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [OPEN_CORS] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  const publicUrl = `${endpoint}/${bucket}`;
  return {
    endpoint,
    bucket,
    publicUrl,
    credentials,
    directory,
    env: {
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_PUBLIC_URL: publicUrl,
    },
    close: async () => {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
