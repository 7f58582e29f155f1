/** The part of `web-push` (3.6, no types of its own) that server/push/alerts.server.ts uses. */
declare module "web-push" {
  import type { Agent } from "node:https";

  export type PushSubscription = { endpoint: string; keys: { p256dh: string; auth: string } };
  export type RequestOptions = {
    vapidDetails?: { subject: string; publicKey: string; privateKey: string };
    TTL?: number;
    urgency?: "very-low" | "low" | "normal" | "high";
    topic?: string;
    contentEncoding?: "aesgcm" | "aes128gcm";
    timeout?: number;
    agent?: Agent;
    headers?: Record<string, string>;
  };
  export type SendResult = { statusCode: number; body: string; headers: Record<string, string> };
  export class WebPushError extends Error {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
    endpoint: string;
  }
  export function sendNotification(subscription: PushSubscription, payload?: string | Buffer | null, options?: RequestOptions): Promise<SendResult>;
  export function generateVAPIDKeys(): { publicKey: string; privateKey: string };
  /** The request sendNotification would make (encrypted body, VAPID headers), for our own guarded request to send. */
  export type RequestDetails = { method: string; headers: Record<string, string | number>; body: Buffer | null; endpoint: string };
  export function generateRequestDetails(subscription: PushSubscription, payload?: string | Buffer | null, options?: RequestOptions): RequestDetails;
  const webpush: {
    sendNotification: typeof sendNotification;
    generateVAPIDKeys: typeof generateVAPIDKeys;
    generateRequestDetails: typeof generateRequestDetails;
    WebPushError: typeof WebPushError;
  };
  export default webpush;
}
