/**
 * Reads a submitted form with a size limit, so an oversized body is refused (413) before anything parses
 * it: the declared Content-Length is checked first, then the bytes actually received, because a chunked
 * body declares nothing.
 */
export class RequestBodyError extends Error {
  constructor(
    readonly code: "BODY_TOO_LARGE" | "BAD_FORM" | "BAD_JSON",
    readonly status: 413 | 400,
    message: string,
  ) {
    super(message);
    this.name = "RequestBodyError";
  }
}

/** Past this much, an oversized upload is cut off instead of read to its end. */
const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Reads and drops the rest of an oversized body in the background, so the client finishes sending and then
 * reads the 413 (cancelling at once would reset the connection under it). A body that keeps coming past
 * DISCARD_LIMIT_BYTES is cut off.
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>) {
  void (async () => {
    let dropped = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        dropped += value.byteLength;
        if (dropped > DISCARD_LIMIT_BYTES) return void (await reader.cancel());
      }
    } catch {
      // The client went away: nothing left to discard.
    }
  })();
}

/** The body's bytes, at most `maxBytes`: the declared length is checked before reading, the received bytes while reading. */
async function readBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new RequestBodyError("BODY_TOO_LARGE", 413, `The request body is larger than ${maxBytes} bytes.`);
  const declared = request.headers.get("content-length");
  if (declared !== null && (!/^\d+$/.test(declared) || Number(declared) > maxBytes)) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let received = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) {
        discardRest(reader);
        throw tooLarge();
      }
      chunks.push(value);
    }
  }

  const body = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Reads at most `maxBytes` of the body as form data (URL-encoded or multipart). */
export async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const body = await readBytes(request, maxBytes);
  const contentType = request.headers.get("content-type") ?? "application/x-www-form-urlencoded";
  try {
    return await new Response(body, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    throw new RequestBodyError("BAD_FORM", 400, "The request body is not a form submission.");
  }
}

/** Reads at most `maxBytes` of the body as a JSON object (an array or a scalar is refused). */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(request.headers.get("content-type") ?? "")) {
    throw new RequestBodyError("BAD_JSON", 400, "The request body must be JSON (Content-Type: application/json).");
  }
  const body = await readBytes(request, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new RequestBodyError("BAD_JSON", 400, "The request body is not valid JSON.");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new RequestBodyError("BAD_JSON", 400, "The request body must be a JSON object.");
  return value as Record<string, unknown>;
}
