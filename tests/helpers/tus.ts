/**
 * A tus 1.0.0 client made of plain requests, for tests that need to see each step: creation, a PATCH that
 * dies half-way (a link that drops), the offset the server reports, and the rest of the file.
 */
import http from "node:http";

export const tusHeaders = { "Tus-Resumable": "1.0.0" };

export const tusMetadata = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString("base64")}`)
    .join(",");

export function tusClient(base: string, endpoint: string, headers: Record<string, string> = {}) {
  const all = { ...tusHeaders, ...headers };
  return {
    create: (length: number, meta: Record<string, string>) =>
      fetch(`${base}${endpoint}`, { method: "POST", headers: { ...all, "Upload-Length": String(length), "Upload-Metadata": tusMetadata(meta) } }),
    uploadUrl: (res: Response) => new URL(res.headers.get("location")!, `${base}${endpoint}/`).toString(),
    offsetOf: async (url: string) => Number((await fetch(url, { method: "HEAD", headers: all })).headers.get("upload-offset")),
    patch: (url: string, offset: number, body: Uint8Array) =>
      fetch(url, {
        method: "PATCH",
        headers: { ...all, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
        body: new Uint8Array(body),
      }),
    /** Sends `bytes` of a PATCH announced as the whole rest, then drops the connection. */
    patchAndDrop: (url: string, offset: number, whole: Uint8Array, bytes: number) =>
      new Promise<void>((resolve) => {
        const req = http.request(url, {
          method: "PATCH",
          headers: {
            ...all,
            "Upload-Offset": String(offset),
            "Content-Type": "application/offset+octet-stream",
            "Content-Length": String(whole.length - offset),
          },
        });
        req.on("error", () => resolve());
        req.write(whole.subarray(offset, offset + bytes), () => setTimeout(() => (req.destroy(), resolve()), 300));
      }),
  };
}

/** A tus 1.0.0 upload in one go (creation, then one PATCH), as the API's integrations send it. */
export async function tusUpload(endpoint: string, body: Uint8Array, metadata: Record<string, string>, headers: Record<string, string> = {}) {
  const created = await fetch(endpoint, {
    method: "POST",
    headers: { ...headers, ...tusHeaders, "Upload-Length": String(body.length), "Upload-Metadata": tusMetadata(metadata) },
  });
  if (created.status !== 201) return created;
  const url = new URL(created.headers.get("location")!, endpoint.endsWith("/") ? endpoint : `${endpoint}/`).toString();
  return fetch(url, {
    method: "PATCH",
    headers: { ...headers, ...tusHeaders, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
    body: new Uint8Array(body),
  });
}
